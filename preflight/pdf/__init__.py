"""PDF preflight: a compiled paper becomes an inventory of its numbered results (issue #7).

`build_pdf_inventory(path)` reads the PDF with pdfminer.six (imported lazily, so the CLI's
start-up never pays for it), finds theorem-like heads from hyperref named destinations or,
failing those, from fonts, and returns a `paperlint.inventory/1` record with page spans.
"""

from paperlint.preflight.pdf.build import build_pdf_inventory, inventory_from_document

__all__ = ["build_pdf_inventory", "inventory_from_document"]
