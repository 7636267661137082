#!/usr/bin/python3
"""A Qt 5 window of text fields for the context test (issue 30): a line edit, a password line
edit, a plain text editor and a button, each holding a text of its own that the test looks for
in the keyboard's trace (where it must never appear). Qt 5 exposes them through AT-SPI only
with QT_LINUX_ACCESSIBILITY_ALWAYS_ON set (or the bus's ScreenReaderEnabled).

usage: qt_fields.py GEOMETRY [TITLE]     (Debian's python3-pyqt5)

GEOMETRY is written (atomically) once the window is shown and whenever the focus moves, as
gtk_fields.py writes it.
SIGTERM ends it.
"""
import json
import os
import signal
import sys

from PyQt5.QtCore import QPoint, QTimer
from PyQt5.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

geometry_path = sys.argv[1]
title = sys.argv[2] if len(sys.argv) > 2 else "Qt fields"
app = QApplication(sys.argv[:1])
window = QWidget()
window.setWindowTitle(title)
window.resize(360, 260)
layout = QVBoxLayout(window)
texts = {"free": "qt-free-text-7391", "password": "qt-password-text-7391", "multiline": "qt-multiline-text-7391"}
free = QLineEdit(texts["free"])
password = QLineEdit(texts["password"])
password.setEchoMode(QLineEdit.Password)
multiline = QPlainTextEdit(texts["multiline"])
button = QPushButton("A button")
widgets = {"free": free, "password": password, "multiline": multiline, "button": button}
for widget in widgets.values():
    layout.addWidget(widget)


def write_geometry():
    fields = {}
    for name, widget in widgets.items():
        origin = widget.mapTo(window, QPoint(0, 0))
        fields[name] = [origin.x(), origin.y(), widget.width(), widget.height()]
    with open(geometry_path + ".tmp", "w", encoding="utf-8") as f:
        focus = next((name for name, widget in widgets.items() if widget is app.focusWidget()), None)
        json.dump({"window": int(window.winId()), "fields": fields, "texts": texts, "focus": focus}, f)
    os.replace(geometry_path + ".tmp", geometry_path)


signal.signal(signal.SIGTERM, lambda *_: app.quit())
timer = QTimer()
timer.start(100)   # lets Python run its signal handler while Qt waits
timer.timeout.connect(lambda: None)
window.show()
button.setFocus()
QTimer.singleShot(300, write_geometry)
app.focusChanged.connect(lambda *_: QTimer.singleShot(0, write_geometry))
app.exec_()
