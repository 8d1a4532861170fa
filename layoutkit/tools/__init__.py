"""Tools around the pipeline: drafting a publication profile from a sample issue
(:mod:`.suggest_profile`); truth files (:mod:`.truth`, the ``layoutkit.truth/1``
format), drafted from a reading (:mod:`.truth_draft`) and shown beside their pages
(:mod:`.review`); scoring a reading against them (:mod:`.evaluate`, the metrics;
``layoutkit evaluate`` in :mod:`.evaluation` and :mod:`.report`, its pytest plugin in
:mod:`.pytest_plugin`); and checking a folder of samples against a snapshot of its
reading (:mod:`.regress`)."""
