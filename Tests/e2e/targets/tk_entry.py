#!/usr/bin/python3
"""A Tk window with one text entry, for system mode's end-to-end test: type into it, then end
it with SIGTERM (or close it); it writes the entry's text to OUTPUT (UTF-8) and exits 0.

usage: tk_entry.py OUTPUT [TITLE [TEXT]]      (Debian's python3-tk)

TEXT is already in the entry, the caret after it.
"""
import signal
import sys
import tkinter

output = sys.argv[1]
title = sys.argv[2] if len(sys.argv) > 2 else "Tk entry"
root = tkinter.Tk()
root.title(title)
root.geometry("420x60")
entry = tkinter.Entry(root, font=("Noto Sans CJK JP", 14))
entry.pack(fill="both", expand=True)
entry.insert(0, sys.argv[3] if len(sys.argv) > 3 else "")
entry.icursor("end")
entry.focus_set()
done = False


def finish(*_):
    global done
    if done:
        return
    done = True
    with open(output, "w", encoding="utf-8") as f:
        f.write(entry.get())
    root.destroy()


def poll():
    # Lets Python run its signal handler while Tk waits for events.
    root.after(50, poll)


signal.signal(signal.SIGTERM, lambda *_: root.after_idle(finish))
root.protocol("WM_DELETE_WINDOW", finish)
root.after(50, poll)
root.mainloop()
