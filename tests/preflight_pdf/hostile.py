"""Hand-built hostile PDFs: an image-only (scanned) page and an encrypted file.

Built byte by byte so the tests need neither img2pdf nor qpdf; the cross-reference table is
computed from the real offsets, so pdfminer parses them as valid PDFs.
"""

from __future__ import annotations

import zlib


def _pdf(objects: list[bytes], trailer_extra: bytes = b"") -> bytes:
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\n" % (len(objects) + 1, trailer_extra)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def _stream(header: bytes, data: bytes) -> bytes:
    return b"<< %s /Length %d >>\nstream\n" % (header, len(data)) + data + b"\nendstream"


def _page_objects() -> list[bytes]:
    pixels = zlib.compress(bytes([0, 255, 255, 0]))
    return [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] "
        b"/Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
        _stream(
            b"/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Filter /FlateDecode",
            pixels,
        ),
        _stream(b"", b"q 200 0 0 200 0 0 cm /Im1 Do Q"),
    ]


def scanned_pdf() -> bytes:
    """One page that shows a 2x2 grey image and has no text at all."""
    return _pdf(_page_objects())


def encrypted_pdf() -> bytes:
    """The same page behind the standard security handler (RC4, revision 2) whose /U entry
    matches no password we can supply, so opening it fails like a password-protected file."""
    encrypt = b"<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <%s> /U <%s> >>" % (
        b"11" * 32,
        b"22" * 32,
    )
    ids = b"/Encrypt 6 0 R /ID [<%s> <%s>] " % (b"ab" * 16, b"ab" * 16)
    return _pdf([*_page_objects(), encrypt], ids)
