#!/usr/bin/env python3
"""Sizes of Pilothouse's C++: the longest functions and .cpp files, checked against issue 29's limits.

    python3 tools/sizes.py            # server/, ui/, app/ of this checkout
    python3 tools/sizes.py --top 30   # longer lists
    python3 tools/sizes.py --all      # every function over the limit, exempt or not

Limits: no function over 120 lines outside tables and format writers; no .cpp over 1,000
lines outside format readers. A function's size is counted from the first line of its
signature (template line included) to its closing brace. Lambdas count as part of the
function they are written in; methods defined inside a class body (also in anonymous
namespaces) count one by one, the class does not. Brace initialisers at namespace scope
(tables such as `const Row rows[] = {...}`) are data, not functions.

Exit status: 0 when every limit holds, 1 when one is broken, 2 on a usage error.
Python 3 standard library only.
"""

import argparse
import os
import re
import sys

FUNCTION_LIMIT = 120
FILE_LIMIT = 1000
AREAS = ("server", "ui", "app")

# Exemptions, each with its reason. Functions are named "path::Qualified::name" (path relative
# to the repository root; the name as this script prints it); files by path.
EXEMPT_FUNCTIONS = {
    "server/core/Settings.cpp::Settings::definitions":
        "a table: one entry per setting (key, type, default, bounds, help text)",
    "ui/settings/SettingLabels.cpp::labels":
        "a table: the console's label for each setting key",
    "server/data/XlsxWriter.cpp::writeXlsx":
        "a format writer: emits the parts of an OOXML workbook in the order the format needs",
    "server/data/internal/Pptx.cpp::writePptx":
        "a format writer: emits the parts of an OOXML presentation in the order the format needs",
}
EXEMPT_FILES = {
    "server/data/internal/ParquetReader.cpp":
        "a format reader: Thrift compact protocol, page headers, encodings and codecs of Parquet",
}

OPERATOR_WORDS = {"==": "eq", "!=": "ne", "<=>": "cmp", "<=": "le", ">=": "ge", "+=": "addto",
                  "-=": "subfrom", "*=": "mulby", "/=": "divby", "=": "assign"}
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".h", ".hpp")

ACCESS_RE = re.compile(
    r"\b(?:public|protected|private)(?:\s+(?:slots|Q_SLOTS))?\s*:(?!:)|\b(?:signals|Q_SIGNALS)\s*:(?!:)"
)
CLASS_RE = re.compile(r"^(?:template\s*<.*>\s*)?(?:class|struct|union)\b(?:\s+\w+)*")
NAME_RE = re.compile(
    r"((?:~?[A-Za-z_]\w*(?:\s*<[^<>(){};]*>)?\s*::\s*)*"
    r"(?:operator\s*\(\s*\)|operator\s*[^\s(\w][^\s(]*|operator\s+[\w:<> *&]+|~?[A-Za-z_]\w*))\s*$"
)
QUALIFIER_TAIL_RE = re.compile(
    r"(?:\s*(?:const|noexcept(?:\s*\([^)]*\))?|override|final|volatile|&&|&|=\s*default|"
    r"->\s*[\w:<>,\s*&]+|Q_DECL_\w+))*\s*$"
)


def strip_code(text):
    """Returns text with comments, string and character literals and preprocessor lines blanked
    out (newlines kept, so line numbers stay right)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start:
            j = i
            while j < n and text[j] in " \t":
                j += 1
            if j < n and text[j] == "#":  # preprocessor line, with its continuations
                while j < n:
                    if text[j] == "\n":
                        if text[j - 1] == "\\":
                            out.append("\n")
                            j += 1
                            continue
                        break
                    j += 1
                i = j
                line_start = False
                continue
            line_start = False
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_") or text[i - 1] in "Lu8U"):
            m = re.match(r'R"([^ ()\\\t\n]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            end = text.find(close, i + m.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # a quote after a digit is a digit separator (1'000), not a character literal
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def top_level_split(head):
    """The head with everything inside (), [] and <...> argument lists of templates kept,
    but reports the positions of top-level characters of interest: returns a list of
    (index, char) for characters at parenthesis depth 0."""
    depth = 0
    result = []
    for i, c in enumerate(head):
        if c in "([":
            if depth == 0:
                result.append((i, c))
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                result.append((i, c))
        elif depth == 0:
            result.append((i, c))
    return result


def function_name(head):
    """The name of the function whose definition head is given, or None when the head is not
    a function's (a table, an initialiser, a control statement)."""
    h = " ".join(head.split())
    h = re.sub(r"\[\[.*?\]\]", "", h)
    if not h or "(" not in h:
        return None
    h = re.sub(r"\boperator\s*(==|!=|<=>|<=|>=|\+=|-=|\*=|/=|=)",
               lambda m: "operator_" + OPERATOR_WORDS[m.group(1)], h)
    top = top_level_split(h)
    # Initialisers and tables: an '=' outside parentheses before the parameter list.
    first_paren = next((i for i, c in top if c == "("), None)
    if any(c == "=" and i < first_paren for i, c in top):
        return None
    # The parameter list: for a constructor with an initialiser list, the parenthesis before
    # the top-level ':' that starts the list; otherwise the last top-level parenthesis pair.
    colon = None
    for k, (i, c) in enumerate(top):
        if c == ":" and not (k + 1 < len(top) and top[k + 1][1] == ":") and not (k > 0 and top[k - 1][1] == ":"):
            if k > 0 and any(cc == ")" for _, cc in top[:k]):
                colon = i
                break
    sig = h[:colon] if colon is not None else h
    sig = QUALIFIER_TAIL_RE.sub("", sig)
    if not sig.endswith(")"):
        return None
    depth = 0
    for j in range(len(sig) - 1, -1, -1):
        if sig[j] == ")":
            depth += 1
        elif sig[j] == "(":
            depth -= 1
            if depth == 0:
                break
    else:
        return None
    before = sig[:j]
    m = NAME_RE.search(before)
    if not m:
        return None
    name = re.sub(r"\s+", "", m.group(1))
    base = name.split("::")[-1]
    if base in ("if", "for", "while", "switch", "catch", "return", "sizeof", "decltype",
                "alignof", "static_assert", "Q_FOREACH", "foreach"):
        return None
    for sign, word in OPERATOR_WORDS.items():
        name = name.replace("operator_" + word, "operator" + sign)
    return name


def functions_in(path, text):
    """Yields (qualified name, first line, last line) of each function defined in text."""
    code = strip_code(text)
    line_of = []
    ln = 1
    for c in code:
        line_of.append(ln)
        if c == "\n":
            ln += 1
    # scope stack entries: ("ns"|"class", name)
    scopes = []
    head_start = 0
    i, n = 0, len(code)
    paren = 0
    while i < n:
        c = code[i]
        if c in "([":
            paren += 1
        elif c in ")]":
            paren = max(0, paren - 1)
        elif c == ";" and paren == 0:
            head_start = i + 1
        elif c == "}" and paren == 0:
            if scopes:
                scopes.pop()
            head_start = i + 1
        elif c == "{":
            head = code[head_start:i]
            # drop access specifiers at the start of a head inside a class
            m = None
            for m in ACCESS_RE.finditer(head):
                pass
            if m is not None:
                head = head[m.end():]
                offset = head_start + m.end()
            else:
                offset = head_start
            stripped = head.strip()
            in_init_list = paren == 0 and re.search(r"\)\s*(?:noexcept\s*)?:(?!:)", stripped) is not None
            prev = stripped[-1:] if stripped else ""
            if paren > 0 or (in_init_list and (prev.isalnum() or prev in "_>")):
                # a braced expression inside a head (an argument, a member initialiser)
                i = skip_braces(code, i)
                continue
            if re.match(r"^(?:inline\s+)?namespace\b", stripped) or re.match(r'^extern\s*""', stripped):
                name = stripped.split()[1] if len(stripped.split()) > 1 and not stripped.startswith("extern") else ""
                scopes.append(("ns", name))
                head_start = i + 1
            elif CLASS_RE.match(stripped) and not stripped.endswith(")"):
                words = re.sub(r"[:{].*$", "", re.sub(r"^template\s*<.*?>\s*", "", stripped)).split()
                words = [w for w in words if w not in ("class", "struct", "union", "final") and not w.startswith("Q_") and not w.isupper()]
                scopes.append(("class", words[-1] if words else "(anonymous)"))
                head_start = i + 1
            else:
                name = function_name(stripped)
                end = skip_braces(code, i)
                if name is not None:
                    qual = "::".join(s for k, s in scopes if k == "class" and s)
                    full = f"{qual}::{name}" if qual and "::" not in name else name
                    lead = len(head) - len(head.lstrip())
                    first = line_of[min(offset + lead, n - 1)]
                    last = line_of[min(end - 1, n - 1)]
                    yield full, first, last
                i = end
                head_start = end
                continue
        i += 1


def skip_braces(code, i):
    """The index just past the brace that closes the one at i."""
    depth = 0
    n = len(code)
    while i < n:
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def collect(root):
    functions, files = [], []
    for area in AREAS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, area)):
            dirnames.sort()
            for fn in sorted(filenames):
                if not fn.endswith(SOURCE_SUFFIXES):
                    continue
                full = os.path.join(dirpath, fn)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                with open(full, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if fn.endswith(".cpp"):
                    files.append((text.count("\n") + (0 if text.endswith("\n") or not text else 1), rel))
                for name, first, last in functions_in(rel, text):
                    functions.append((last - first + 1, rel, name, first))
    functions.sort(key=lambda r: (-r[0], r[1], r[3]))
    files.sort(key=lambda r: (-r[0], r[1]))
    return functions, files


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="repository root (default: the checkout this script is in)")
    ap.add_argument("--top", type=int, default=15, help="how many functions and files to list")
    ap.add_argument("--all", action="store_true", help="list every function over the limit")
    args = ap.parse_args(argv)

    functions, files = collect(args.root)

    print(f"Longest functions in {', '.join(a + '/' for a in AREAS)} (limit {FUNCTION_LIMIT} lines)")
    print(f"{'lines':>6}  {'where':<50} function")
    for lines, rel, name, first in functions[: args.top]:
        mark = " (exempt)" if f"{rel}::{name}" in EXEMPT_FUNCTIONS else ""
        print(f"{lines:>6}  {rel + ':' + str(first):<50} {name}{mark}")
    print()
    print(f"Longest .cpp files (limit {FILE_LIMIT} lines)")
    print(f"{'lines':>6}  file")
    for lines, rel in files[: args.top]:
        mark = " (exempt)" if rel in EXEMPT_FILES else ""
        print(f"{lines:>6}  {rel}{mark}")
    print()

    long_functions = [r for r in functions if r[0] > FUNCTION_LIMIT]
    bad_functions = [r for r in long_functions if f"{r[1]}::{r[2]}" not in EXEMPT_FUNCTIONS]
    long_files = [r for r in files if r[0] > FILE_LIMIT]
    bad_files = [r for r in long_files if r[1] not in EXEMPT_FILES]
    known = {f"{r[1]}::{r[2]}" for r in functions}
    stale = [k for k in EXEMPT_FUNCTIONS if k not in known]
    stale += [k for k in EXEMPT_FILES if not os.path.exists(os.path.join(args.root, k))]

    if bad_functions or args.all:
        print(f"Functions over {FUNCTION_LIMIT} lines" + (" (all)" if args.all else " (not exempt)"))
        for lines, rel, name, first in (long_functions if args.all else bad_functions):
            reason = EXEMPT_FUNCTIONS.get(f"{rel}::{name}")
            print(f"{lines:>6}  {rel}:{first}  {name}" + (f"  [exempt: {reason}]" if reason else ""))
        print()
    if bad_files:
        print(f".cpp files over {FILE_LIMIT} lines (not exempt)")
        for lines, rel in bad_files:
            print(f"{lines:>6}  {rel}")
        print()
    if stale:
        print("Exemptions that match nothing (moved or renamed? update the list in tools/sizes.py)")
        for k in stale:
            print(f"        {k}")
        print()

    print("Summary")
    print(f"  {'check':<40} {'count':>6} {'exempt':>7} {'broken':>7}")
    print(f"  {'functions scanned':<40} {len(functions):>6}")
    print(f"  {'.cpp files scanned':<40} {len(files):>6}")
    print(f"  {'functions over ' + str(FUNCTION_LIMIT) + ' lines':<40} {len(long_functions):>6} "
          f"{len(long_functions) - len(bad_functions):>7} {len(bad_functions):>7}")
    print(f"  {'.cpp files over ' + str(FILE_LIMIT) + ' lines':<40} {len(long_files):>6} "
          f"{len(long_files) - len(bad_files):>7} {len(bad_files):>7}")
    ok = not bad_functions and not bad_files
    print("  result: " + ("within the limits" if ok else "LIMITS BROKEN"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
