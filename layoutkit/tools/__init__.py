"""Tools around the pipeline: drafting a publication profile from a sample issue
(:mod:`.suggest_profile`) and scoring a reading against hand-labelled truth
(:mod:`.evaluate`)."""
