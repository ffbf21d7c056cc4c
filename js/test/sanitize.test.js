import "./dom.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RemoteMediaPolicy } from "../src/remote_media.js";
import { sanitizeHtml } from "../src/sanitize.js";

/** The sanitised fragment of `html` as markup. */
function clean(html, remote) {
  const box = document.createElement("div");
  box.append(sanitizeHtml(html, remote));
  return box.innerHTML;
}

describe("sanitizeHtml removes what can run", () => {
  const rows = [
    ["script elements", '<p onclick="steal()">hi<script>alert(1)</script></p>', "<p>hi</p>"],
    ["javascript: links (the text stays)", '<a href="javascript:alert(1)" title="t">x</a>', '<a title="t">x</a>'],
    ["a tab-split javascript: link", '<a href="java&#9;script:alert(1)">x</a>', "<a>x</a>"],
    ["an image whose onerror runs", '<img src="x" onerror="alert(1)">', '<span class="agui-blocked">[image]</span>'],
    ["a javascript: image, shown as its alt text", '<img src="javascript:alert(1)" alt="chart">',
      '<span class="agui-blocked">[image: chart]</span>'],
    ["frames, objects, forms and styles", '<iframe src="https://evil.example"></iframe><object data="x"></object>' +
      '<embed src="x"><form action="x"><button>b</button></form><style>*{}</style>', "b"],
    ["SVG with script", '<svg><script>alert(1)</script><circle onload="alert(1)"/></svg>', ""],
    ["a noscript title breakout", '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
      "<p></p>"],
    ["event handlers on table cells", '<table><tr><td colspan=2 onmouseover="x()">c</td></tr></table>',
      '<table><tbody><tr><td colspan="2">c</td></tr></tbody></table>'],
    ["media elements", '<audio src="https://x.example/a.mp3"></audio><video src="x"></video>', ""],
  ];
  for (const [name, html, expected] of rows) it(name, () => assert.equal(clean(html), expected));
});

describe("sanitizeHtml keeps agent HTML from posing as the widget", () => {
  it("drops style, ids, data-* and aria-* attributes and the widget's classes", () => {
    assert.equal(
      clean('<div class="agui-chat agui-message" style="position:fixed" data-agui="send" aria-label="x" id="y">z</div>'),
      "<div>z</div>",
    );
  });
  it("keeps a code block's language class only", () => {
    assert.equal(
      clean('<pre><code class="language-python">x</code></pre><code class="language-x agui-chat">y</code>'),
      '<pre><code class="language-python">x</code></pre><code>y</code>',
    );
  });
  it("turns every input into a disabled checkbox (GFM task lists)", () => {
    assert.equal(
      clean('<input type="text" value="v"><input type="checkbox" checked>'),
      '<input type="checkbox" disabled=""><input type="checkbox" checked="" disabled="">',
    );
  });
  it("opens links in a new tab without an opener", () => {
    assert.equal(
      clean('<a href="https://example.com" target="_self" rel="opener">x</a>'),
      '<a href="https://example.com/" target="_blank" rel="noopener noreferrer">x</a>',
    );
  });
});

describe("sanitizeHtml on MathML", () => {
  it("filters style declarations and keeps HTML nested in a formula as text", () => {
    assert.equal(
      clean('<math><mi style="color:red;background:url(https://evil.example/x)">x</mi>' +
        "<mtext><img src=x onerror=alert(1)><b>bold</b></mtext></math>"),
      '<math><mi style="color:red">x</mi><mtext>bold</mtext></math>',
    );
  });
  it("keeps temml's classes but not the widget's, and no href", () => {
    assert.equal(
      clean('<math><mrow class="tml-jot agui-chat" href="https://x"><mi>y</mi></mrow></math>'),
      '<math><mrow class="tml-jot"><mi>y</mi></mrow></math>',
    );
  });
  it("drops a MathML element outside <math>", () => {
    assert.equal(clean("<mi>outside</mi>"), "");
  });
});

describe("sanitizeHtml and remote images", () => {
  it("shows an inline data: image at once, lazily and without a referrer", () => {
    assert.equal(
      clean('<img src="data:image/png;base64,AAAA" alt="dot">'),
      '<img src="data:image/png;base64,AAAA" alt="dot" loading="lazy" referrerpolicy="no-referrer">',
    );
  });

  it("replaces a remote image with a placeholder that names its origin, and loads it on click", () => {
    const box = document.createElement("div");
    box.append(sanitizeHtml('<img src="https://cdn.example/cat.png" alt="cat" onerror="alert(1)">'));
    const placeholder = box.querySelector('[data-agui="remote-media"]');
    assert.equal(box.querySelector("img"), null, "no request before the click");
    assert.equal(placeholder.dataset.origin, "https://cdn.example");
    assert.equal(placeholder.textContent, "cathttps://cdn.exampleLoad");
    placeholder.querySelector('[data-agui="load-remote"]').click();
    assert.equal(box.innerHTML, '<img src="https://cdn.example/cat.png" alt="cat" referrerpolicy="no-referrer">');
  });

  it("loads an image from a trusted origin and still holds back the others", () => {
    const policy = new RemoteMediaPolicy(() => ["https://cdn.example/any/path"]);
    const box = document.createElement("div");
    box.append(sanitizeHtml('<img src="https://cdn.example/a.png" alt="a"><img src="https://other.example/b.png">', policy));
    assert.deepEqual(
      [...box.children].map((node) => [node.tagName, node.getAttribute("src") ?? node.dataset.origin]),
      [["IMG", "https://cdn.example/a.png"], ["SPAN", "https://other.example"]],
    );
  });
});
