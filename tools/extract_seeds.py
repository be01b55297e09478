"""Turn the five seed tutorials (notebook dumps in ../shared/seeds/) into runnable scripts
under examples/seeds/, with `import torch` replaced by `import ferrograd as torch`.

A cell is the code after an `In [N]:` line, up to the printed output or prose that follows.
Shell cells (`!pip`) are dropped. The scripts run their cells with examples/seeds/_runner.py. Run: python tools/extract_seeds.py ../shared/seeds examples/seeds
"""

import ast
import pathlib
import re
import sys


OUTPUT = re.compile(r"^(None|True|False|[-+]?[\d.e+-]+|<.*|\(?tensor\(.*|Variable containing:.*|\[torch\..*)$")


def is_code(par):
    """A paragraph after a blank line continues the cell if it compiles and does not look
    like printed output."""
    if not par or OUTPUT.match(par[0].strip()):
        return False
    try:
        tree = ast.parse("\n".join(par))
    except SyntaxError:
        return False
    # `input:  tensor([2., 3.])` parses as an annotation but is printed output
    return not any(isinstance(node, ast.AnnAssign) for node in tree.body)


def cells(text):
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^In \[([^\]]*)\]:\s*$", lines[i])
        if not m:
            i += 1
            continue
        i += 1
        code = []
        while i < len(lines) and not re.match(r"^In \[", lines[i]):
            par = []
            while i < len(lines) and lines[i].strip() != "" and not re.match(r"^In \[", lines[i]):
                par.append(lines[i])
                i += 1
            if code and not is_code(par):
                break
            code.extend(par)
            while i < len(lines) and lines[i].strip() == "":
                i += 1
        while code and code[-1].strip() == "":
            code.pop()
        yield m.group(1), code


HEADER = '''"""Generated from the seed tutorial %s by tools/extract_seeds.py.

Each notebook cell runs in one shared namespace, as in Jupyter (see _runner.py).
"""

from _runner import run

CELLS = [
'''

FOOTER = ''']

if __name__ == "__main__":
    run(CELLS)
'''

def port(line):
    # GPU cells fall back to the CPU where no GPU is present
    line = line.replace("th.cuda.FloatTensor", "(th.cuda.FloatTensor if th.cuda.is_available() else th.FloatTensor)")
    line = line.replace(".cuda()", '.to("cuda" if th.cuda.is_available() else "cpu")')
    line = re.sub(r"^(\s*)import torch as (\w+)", r"\1import ferrograd as \2", line)
    line = re.sub(r"^(\s*)import torch\b", r"\1import ferrograd as torch", line)
    line = re.sub(r"^(\s*)from torch\b", r"\1from ferrograd", line)
    return line


def convert(src, dst):
    out = [HEADER % src.name]
    for n, code in cells(src.read_text()):
        if not code or code[0].lstrip().startswith("!"):
            continue
        out.append("    (%r, %r)," % (n, "\n".join(port(line) for line in code)))
    out.append(FOOTER)
    dst.write_text("\n".join(out))


if __name__ == "__main__":
    src_dir, dst_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    dst_dir.mkdir(parents=True, exist_ok=True)
    for f in sorted(src_dir.glob("*.txt")):
        convert(f, dst_dir / ("seed_%s.py" % f.name[:3]))
