"""OCR, a glyph source for scanned pages and images: which pages need it and their
words read in place of their text layer (`scanned`), the page image made ready
and read by tesseract (`image`), and the quality of what it read
(`quality`).  OpenCV, Pillow and pytesseract are imported only where a page is
read by OCR."""
