#!/usr/bin/env python3
"""Writes editors/helix/languages.toml: askls added beside the default
language servers of every language Helix knows.

Helix has no "all languages" setting, and a user's [[language]] entry
replaces the default `language-servers` list rather than extending it, so
each language's entry repeats Helix's own servers with askls appended (last,
so the language's own server keeps goto, hover and completion).

The defaults come from Helix's built-in languages.toml: either a file
(--from, e.g. languages.toml of the Helix source) or the copy compiled into
the hx binary (--hx, e.g. /usr/lib/hx/hx of Debian's hx package).

  python3 gen-languages.py --hx SID/usr/lib/hx/hx --helix-version 25.07.1 > languages.toml
"""
import argparse
import re
import sys
import tomllib

START = b"# Language support configuration."

# initializationOptions for askls in Helix: no code lenses there, so the
# citations come as Hint diagnostics; answers may take a while.
ASKLS_SERVER = """[language-server.askls]
command = "askls"
args = ["serve"]
# Helix waits this long (seconds) for a reply; a model's answer can be slow.
timeout = 300
# Sent as initializationOptions (see DESIGN.md's configuration list).
config = { codeLens = false, citationsAsDiagnostics = true, timeoutSeconds = 240 }
"""


def from_binary(path):
    """The built-in languages.toml compiled into hx (include_str!).

    The text is followed by other strings with no separator, so lines are
    dropped from the end until what is left parses."""
    data = open(path, "rb").read()
    i = data.find(START)
    if i < 0:
        sys.exit(f"{path}: no built-in languages.toml found")
    end = data.find(b"\0", i)
    chunk = data[i : end if end > 0 else i + 4_000_000]
    text = chunk.decode("utf-8", errors="replace")
    # Cut at the first character no TOML file holds.
    m = re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd]", text)
    if m:
        text = text[: m.start()]
    lines = text.split("\n")
    while lines:
        try:
            return tomllib.loads("\n".join(lines))
        except tomllib.TOMLDecodeError:
            lines.pop()
    sys.exit(f"{path}: the built-in languages.toml does not parse")


def toml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_value(v):
    if isinstance(v, str):
        return toml_str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"unexpected value {v!r}")


def server_name(entry):
    return entry if isinstance(entry, str) else entry.get("name")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--from", dest="from_file", help="a Helix languages.toml")
    src.add_argument("--hx", help="an hx binary holding the built-in languages.toml")
    ap.add_argument("--helix-version", required=True, help="the Helix version the defaults come from")
    ap.add_argument("--only", help="comma-separated language names (default: every language)")
    args = ap.parse_args()

    if args.from_file:
        with open(args.from_file, "rb") as f:
            defaults = tomllib.load(f)
        source = args.from_file
    else:
        defaults = from_binary(args.hx)
        source = f"the languages.toml built into {args.hx}"

    only = set(args.only.split(",")) if args.only else None
    languages = [l for l in defaults.get("language", []) if only is None or l["name"] in only]
    if not languages:
        sys.exit("no languages found")

    out = sys.stdout
    out.write(
        f"# askls for Helix: askls beside the default language servers of {len(languages)} languages.\n"
        f"# Generated from Helix {args.helix_version}'s default languages.toml ({source.split('/')[-1] if args.from_file else 'built into hx'})\n"
        f"# by editors/helix/gen-languages.py; regenerate it for another Helix version rather than editing it.\n"
        "# Copy it to ~/.config/helix/languages.toml (or merge it into yours).\n\n"
    )
    out.write(ASKLS_SERVER)
    for lang in languages:
        servers = list(lang.get("language-servers", []))
        if "askls" not in [server_name(s) for s in servers]:
            servers.append("askls")
        out.write(f"\n[[language]]\nname = {toml_str(lang['name'])}\nlanguage-servers = {toml_value(servers)}\n")


if __name__ == "__main__":
    main()
