"""Key bindings shown in the current language (the footer and pop-ups read these)."""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode

from meio.i18n import _


def translate_bindings(node: DOMNode) -> None:
    """Show ``node``'s key bindings in the current language (the footer reads these).

    Textual copies a class's ``BINDINGS`` into each node; descriptions (and key
    names given as ``key_display``, such as Space) written with :func:`meio.i18n.N_`
    are translated here, in that copy, when the node is built.
    """
    bindings = node._bindings
    for key, entries in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            replace(
                b,
                description=_(b.description) if b.description else b.description,
                key_display=_(b.key_display) if b.key_display else b.key_display,
            )
            for b in entries
        ]
