"""Unreadable PDFs end in one clear InputError, never a traceback."""

from __future__ import annotations

import pytest

from paperlint.errors import InputError
from paperlint.preflight.pdf import build_pdf_inventory

from .hostile import encrypted_pdf, scanned_pdf


def _error(tmp_path, data: bytes, name: str = "paper.pdf") -> InputError:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        build_pdf_inventory(path)
    assert caught.value.path == str(path)
    return caught.value


def test_scanned_image_pdf_asks_for_ocr(tmp_path):
    error = _error(tmp_path, scanned_pdf())
    assert "no text layer (scanned?)" in error.message
    assert "run OCR first" in error.message


def test_encrypted_pdf_says_so_and_how_to_decrypt(tmp_path):
    error = _error(tmp_path, encrypted_pdf())
    assert "encrypted PDF cannot be opened" in error.message
    assert error.hint is not None and "decrypt" in error.hint


@pytest.mark.parametrize(
    "data",
    [b"", b"\x00\x01garbage" * 64, b"This is a text file, not a PDF.\n" * 10],
    ids=["empty", "binary-garbage", "text"],
)
def test_non_pdf_bytes_are_rejected(tmp_path, data):
    assert "not a PDF file" in _error(tmp_path, data).message


@pytest.mark.parametrize(
    "data",
    [b"%PDF-1.4\n" + b"\x00garbage" * 100, b"%PDF-1.7\n1 0 obj << /Type /Catalog"],
    ids=["header-then-garbage", "truncated"],
)
def test_broken_pdf_is_an_input_error(tmp_path, data):
    assert "broken PDF" in _error(tmp_path, data).message


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        build_pdf_inventory(tmp_path / "absent.pdf")
