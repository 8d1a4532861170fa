"""Tools around the pipeline: profiles, truth files, evaluation and regression checks.

- `suggest_profile`: drafting a publication profile from a sample issue.
- `truth`: truth files, the `layoutkit.truth/1` format; drafted from a reading
  (`truth_draft`) and shown beside their pages (`review`).
- `evaluate`: the metrics scoring a reading against truth; `layoutkit evaluate` in
  `evaluation` and `report`, its pytest plugin in `pytest_plugin`.
- `regress`: checking a folder of samples against a snapshot of its reading.
"""
