"""Reading order: a page's words, furniture and layout tree assembled into the
[`Page`][layoutkit.model.Page] a reader reads (`page`)."""
