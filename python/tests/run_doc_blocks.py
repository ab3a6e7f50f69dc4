"""Runs every ```python block of a Markdown page, in order, in one namespace, in the current
folder (scripts/check-wheel runs docs/python.md in a copy of examples/).

    python run_doc_blocks.py PAGE.md

A block whose line before is `<!-- not run: REASON -->` is skipped (REASON says why); one
after `<!-- file: PATH -->` is saved as PATH for the blocks after it (any language). A block
that raises fails the run with its place (PAGE:LINE) and the exception. Lines starting with
`%` or `%%` (IPython magics) are run through IPython when it is installed and the block is
skipped otherwise; the notebook check runs the magic in a real kernel.
"""

import sys
import traceback


def blocks(text):
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            lang = lines[i][3:].strip()
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            before = lines[i - 1].strip() if i > 0 else ""
            yield i + 1, lang, "\n".join(lines[i + 1:j]) + "\n", before
            i = j + 1
        else:
            i += 1


def main():
    page = sys.argv[1]
    text = open(page, encoding="utf-8").read()
    namespace = {"__name__": "__doc__"}
    ran = skipped = 0
    for line, lang, body, before in blocks(text):
        if before.startswith("<!-- file:"):
            # Saved for the blocks after it, as DocBlocksTests does (a script, a preset).
            with open(before[len("<!-- file:"):-3].strip(), "w", encoding="utf-8") as f:
                f.write(body)
            continue
        if lang != "python":
            continue
        if before.startswith("<!-- not run:"):
            reason = before[len("<!-- not run:"):-3].strip()
            assert len(reason) > 5, "%s:%d: say why the block is not run" % (page, line)
            skipped += 1
            continue
        if body.lstrip().startswith("%"):
            skipped += 1  # a magic: the notebook check runs it in a kernel
            continue
        try:
            exec(compile(body, "%s:%d" % (page, line), "exec"), namespace)
        except BaseException:
            traceback.print_exc()
            print("error: %s:%d: the block failed:\n%s" % (page, line, body), file=sys.stderr)
            sys.exit(1)
        ran += 1
    if ran == 0:
        print("error: %s has no python block that ran" % page, file=sys.stderr)
        sys.exit(1)
    print("ok: %s: %d python blocks ran, %d not run here" % (page, ran, skipped))


if __name__ == "__main__":
    main()
