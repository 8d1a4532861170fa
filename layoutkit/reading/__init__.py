"""Reading order: a page's words, furniture and layout tree assembled into a `Page`.

The assembly is `page`'s; the `Page` is the one a reader reads (`layoutkit.model.Page`).
"""
