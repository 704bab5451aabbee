"""The PDF reader of the tests (``tests/book/pdf_sheets.py``) on PDFs written here, byte by byte: it needs no build."""

from __future__ import annotations

from pathlib import Path

import pytest

from .pdf_sheets import read_sheets


def _tiny_pdf(path: Path, contents: list[bytes]) -> Path:
    """A PDF of A4 sheets, one per content stream in ``contents``, which may use the font /F1 (Helvetica), the 1x1
    grey image /Im1 and the form /Fm1 (which draws /Im1); written object by object, with its cross-reference table."""

    def stream(entries: bytes, data: bytes) -> bytes:
        return b"<< %s /Length %d >>\nstream\n%s\nendstream" % (entries, len(data), data)

    resources = b"<< /Font << /F1 3 0 R >> /XObject << /Im1 4 0 R /Fm1 5 0 R >> >>"
    first = 6  # the number of the first sheet's object; its content stream follows it
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (b" ".join(b"%d 0 R" % (first + 2 * i) for i in range(len(contents))), len(contents)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        stream(
            b"/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8", b"\x80"
        ),
        stream(
            b"/Type /XObject /Subtype /Form /BBox [0 0 20 20] /Resources << /XObject << /Im1 4 0 R >> >>",
            b"q 20 0 0 20 0 0 cm /Im1 Do Q",
        ),
    ]
    for i, content in enumerate(contents):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources %s /Contents %d 0 R >>"
            % (resources, first + 2 * i + 1)
        )
        objects.append(stream(b"", content))
    pdf, offsets = bytearray(b"%PDF-1.7\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    table = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    pdf += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, table)
    path.write_bytes(bytes(pdf))
    return path


def test_the_pdf_reader_finds_each_sheets_text_how_far_down_it_reaches_and_its_images(tmp_path):
    """``tests/book/pdf_sheets.py`` on a PDF made here: a sheet with text down to a baseline 700 pt above its bottom
    edge, one with only its footer number, an empty one, one drawing an image, one drawing it inside a form."""
    footer = b"BT /F1 9 Tf 280 30 Td (%d / 5) Tj ET"
    path = _tiny_pdf(
        tmp_path / "tiny.pdf",
        [
            b"BT /F1 12 Tf 72 780 Td (The first line) Tj 0 -80 Td (ends at 700 pt) Tj ET " + footer % 1,
            footer % 2,
            b"",
            b"q 100 0 0 100 72 600 cm /Im1 Do Q " + footer % 4,
            b"q 72 600 cm /Fm1 Do Q " + footer % 5,
        ],
    )
    sheets = read_sheets(path)
    assert [" ".join(sheet.text.split()) for sheet in sheets] == [
        "The first line ends at 700 pt 1 / 5",
        "2 / 5",
        "",
        "4 / 5",
        "5 / 5",
    ]
    assert sheets[0].extent == pytest.approx((842 - 700) / 842, abs=1e-4)
    assert [sheet.extent for sheet in sheets[1:]] == [0.0, 0.0, 0.0, 0.0]  # the footer, below 50 pt, left out
    assert [sheet.images for sheet in sheets] == [False, False, False, True, True]
    with pytest.raises(ValueError, match="path"):
        read_sheets(tmp_path / "none.pdf")
