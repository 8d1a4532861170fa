"""Tools around the pipeline: drafting a publication profile from a sample issue
(`suggest_profile`); truth files (`truth`, the ``layoutkit.truth/1``
format), drafted from a reading (`truth_draft`) and shown beside their pages
(`review`); scoring a reading against them (`evaluate`, the metrics;
``layoutkit evaluate`` in `evaluation` and `report`, its pytest plugin in
`pytest_plugin`); and checking a folder of samples against a snapshot of its
reading (`regress`)."""
