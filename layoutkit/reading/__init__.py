"""Reading order: a page's words, furniture and layout tree assembled into the
:class:`~layoutkit.model.Page` a reader reads (:mod:`.page`)."""
