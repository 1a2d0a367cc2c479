"""The PDF preflight costs nothing until a PDF is read: pdfminer is imported lazily."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_pdf_preflight_does_not_import_pdfminer():
    code = (
        "import sys, paperlint.preflight.pdf, paperlint.preflight.pdf.build;"
        "print('pdfminer' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
