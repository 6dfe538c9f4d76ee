"""Writes the Swift examples of a Markdown page as one Swift file, for scripts/test-client-by-url to compile.

    python3 scripts/swift-client/examples.py PAGE.md OUT.swift

Takes every ```swift block in order, except manifest excerpts (a block with `.package(`, which belongs in a
Package.swift). A `#Preview` becomes a function returning its view, since the preview macro exists only with
SwiftUI. Exits 1 when the page has no Swift example.
"""

import re
import sys


def main(page, out):
    text = open(page, encoding="utf-8").read()
    blocks = re.findall(r"^```swift\n(.*?)^```$", text, flags=re.S | re.M)
    kept = [block for block in blocks if ".package(" not in block]
    if not kept:
        print(f"{page}: no Swift example", file=sys.stderr)
        return 1
    previews = 0
    lines = [f"// The Swift examples of {page}, in order, as scripts/test-client-by-url compiles them."]
    for block in kept:
        for line in block.splitlines():
            match = re.match(r"^#Preview(\(.*\))? \{$", line)
            if match:
                previews += 1
                line = f"@MainActor @ViewBuilder func preview{previews}() -> some View {{"
            lines.append(line)
        lines.append("")
    with open(out, "w", encoding="utf-8") as file:
        file.write("\n".join(lines))
    print(f"{page}: {len(kept)} Swift examples, {previews} previews")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
