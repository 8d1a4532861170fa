"""Document loaders for retrieval frameworks, built on `layoutkit.chunks`.

- `langchain`: `LayoutkitLoader`, a LangChain ``BaseLoader`` (``pip install
  'layoutkit[langchain]'``).
- `llamaindex`: `LayoutkitReader`, a LlamaIndex ``BaseReader`` (``pip install
  'layoutkit[llamaindex]'``).
- `records`: what both hand over, with no framework: each chunk's (or page's) text and
  metadata as plain JSON values.

Each framework is imported by its own module alone, so importing layoutkit never needs
it; a missing one is a one-line error naming the extra to install.
"""
