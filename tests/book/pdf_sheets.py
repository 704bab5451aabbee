"""The text of each sheet of a PDF and how far down the sheet it reaches, read with PDFium (pypdfium2).

One reader for the tests that read the printed book (``tests/book/browser/test_pdf.py``,
``tests/book/test_editions.py``):
PDFium reads a PDF of the book in two to three seconds, where pypdf's ``extract_text`` took about 40. Each PDF is read
once per test process (:func:`read_sheets` is cached).

What pypdf gave, PDFium gives too, with these differences, all in PDFium's favour or undone here: ligatures come
as their letters ("fi", not "ﬁ"); a line ends with "\\n" (PDFium's "\\r\\n" is folded); a hyphen that ends a line,
which PDFium marks U+FFFE, is given back as the "-" printed on the sheet; a few math letters of a formula come in
another order.
"""

from __future__ import annotations

import ctypes
from functools import cache
from pathlib import Path
from typing import NamedTuple

# text whose baseline is less than this above the sheet's bottom edge is its footer ("12 / 345")
FOOTER_HEIGHT_PT = 50
# text in this band at the top of a sheet is its running head (in the top margin of book/build_pdf.py, 18 mm,
# whose text starts 51 pt below the edge)
HEAD_HEIGHT_PT = 47


class Sheet(NamedTuple):
    """One sheet (page) of a PDF as a reader meets it."""

    text: str
    """Its text in reading order, lines ending with "\\n" (the footer's number included)."""
    extent: float
    """How far down the sheet its text reaches: from the top edge to the lowest baseline of a visible character
    above the footer, as a fraction of the sheet's height (0.0 when nothing but the footer has text)."""
    images: bool
    """Whether it draws an image (a figure), also inside a form XObject."""
    head: str = ""
    """Its running head: the text in the top margin (not part of :attr:`text`)."""


def _draws_an_image(raw, objects) -> bool:
    """Whether any of the page objects ``objects`` (handles) is an image, looking inside form XObjects."""
    for handle in objects:
        kind = raw.FPDFPageObj_GetType(handle)
        if kind == raw.FPDF_PAGEOBJ_IMAGE:
            return True
        if kind == raw.FPDF_PAGEOBJ_FORM:
            inner = (raw.FPDFFormObj_GetObject(handle, i) for i in range(raw.FPDFFormObj_CountObjects(handle)))
            if _draws_an_image(raw, inner):
                return True
    return False


def _sheet(raw, page) -> Sheet:
    textpage = page.get_textpage()
    try:
        raw_text = textpage.get_text_range()
        left, bottom, right, top = page.get_mediabox()
        head = textpage.get_text_bounded(left, top - HEAD_HEIGHT_PT, right, top).strip()
        count = raw.FPDFText_CountChars(textpage)
        # PDFium counts characters in UTF-16 units (a math letter such as U+1D439 is two); the text is decoded.
        # The index of each character that is not blank, for its baseline:
        visible, unit = [], 0
        for char in raw_text:
            if not char.isspace():
                visible.append(unit)
            unit += 2 if ord(char) > 0xFFFF else 1
        if unit != count:  # the text left out or added characters: ask for each one instead
            visible = [i for i in range(count) if not chr(raw.FPDFText_GetUnicode(textpage, i)).isspace()]
        x, y = ctypes.c_double(), ctypes.c_double()
        at_x, at_y = ctypes.byref(x), ctypes.byref(y)
        lowest = None
        for index in visible:
            if raw.FPDFText_GetCharOrigin(textpage, index, at_x, at_y) and (
                y.value - bottom > FOOTER_HEIGHT_PT and (lowest is None or y.value < lowest)
            ):
                lowest = y.value
        if head and raw_text.startswith(head):  # PDFium reads the head first: the text is the rest
            raw_text = raw_text[len(head) :].lstrip("\r\n")
    finally:
        textpage.close()
    extent = (top - lowest) / (top - bottom) if lowest is not None else 0.0
    objects = (raw.FPDFPage_GetObject(page, i) for i in range(raw.FPDFPage_CountObjects(page)))
    text = raw_text.replace("\r\n", "\n").replace("\r", "\n").replace("\ufffe", "-")
    return Sheet(text, extent, _draws_an_image(raw, objects), " ".join(head.split()))


@cache
def read_sheets(path: Path) -> tuple[Sheet, ...]:
    """Each sheet of the PDF at ``path`` in order: its text, how far down it reaches, whether it holds an image.

    Parameters
    ----------
    path : Path
        A PDF file.

    Returns
    -------
    tuple of Sheet
        One per page; ``len`` is the PDF's page count.

    Raises
    ------
    ValueError
        If ``path`` is not a file.
    """
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    if not Path(path).is_file():
        raise ValueError(f"path: no PDF at {path}")
    pdf = pdfium.PdfDocument(str(path))
    try:
        sheets = []
        for number in range(len(pdf)):
            page = pdf[number]
            try:
                sheets.append(_sheet(raw, page))
            finally:
                page.close()
        return tuple(sheets)
    finally:
        pdf.close()
