import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  dataUrlType, hostLabel, originSet, previewKind, remoteOrigin, safeDownloadHref, safeLinkHref, safeMediaSrc,
} from "../src/urls.js";

/** Each row: [input, expected]; the test title shows the input. */
function table(name, fn, rows) {
  describe(name, () => {
    for (const [input, expected] of rows) {
      it(JSON.stringify(input), () => assert.equal(fn(input), expected));
    }
  });
}

table("safeLinkHref", safeLinkHref, [
  ["https://example.com/a b?q=1#x", "https://example.com/a%20b?q=1#x"],
  ["HTTP://Example.COM", "http://example.com/"],
  ["mailto:someone@example.com", "mailto:someone@example.com"],
  ["  https://example.com/  ", "https://example.com/"],
  ["\u0000\u001fhttps://example.com/", "https://example.com/"],
  ["javascript:alert(1)", null],
  ["JavaScript:alert(1)", null],
  ["java\tscript:alert(1)", null],
  ["java\nscript:alert(1)", null],
  ["\u0001javascript:alert(1)", null],
  ["vbscript:msgbox(1)", null],
  ["data:text/html,<script>alert(1)</script>", null],
  ["data:image/png;base64,AAAA", null],
  ["file:///etc/passwd", null],
  ["/api/contents", null],
  ["../tree", null],
  ["//evil.example/x", null],
  ["", null],
  ["\t\n", null],
  [null, null],
  [42, null],
]);

table("safeDownloadHref", safeDownloadHref, [
  ["data:text/plain;base64,aGk=", "data:text/plain;base64,aGk="],
  ["data:application/pdf;base64,JVBE", "data:application/pdf;base64,JVBE"],
  ["data:text/html;base64,PHNjcmlwdD4=", null],
  ["data:application/xhtml+xml,<x/>", null],
  ["data:image/svg+xml,<svg onload=alert(1)>", null],
  ["data:application/javascript,alert(1)", null],
  ["data:application/x-sh,rm", null],
  ["data:,hello", null],
  ["data:;base64,aGk=", null],
  ["data:text plain,x", null],
  ["https://example.com/report.pdf", "https://example.com/report.pdf"],
  ["javascript:alert(1)", null],
]);

describe("safeMediaSrc", () => {
  const rows = [
    ["data:image/png;base64,iVBO", "image", "data:image/png;base64,iVBO"],
    ["data:image/svg+xml;base64,PHN2Zz4=", "image", "data:image/svg+xml;base64,PHN2Zz4="],
    ["DATA:IMAGE/JPEG;base64,/9j/", "image", "DATA:IMAGE/JPEG;base64,/9j/"],
    ["data:text/html,<script>alert(1)</script>", "image", null],
    ["data:image/tiff;base64,AAAA", "image", null],
    ["data:audio/mpeg;base64,AAAA", "audio", "data:audio/mpeg;base64,AAAA"],
    ["data:video/mp4;base64,AAAA", "audio", null],
    ["data:video/mp4;base64,AAAA", "video", "data:video/mp4;base64,AAAA"],
    ["data:audio/svg+xml,<svg/>", "audio", null],
    ["blob:https://notebook.example/0b5c", "image", "blob:https://notebook.example/0b5c"],
    ["https://cdn.example/cat.png", "image", "https://cdn.example/cat.png"],
    ["javascript:alert(1)", "image", null],
    ["cat.png", "image", null],
    ["ftp://example.com/cat.png", "image", null],
  ];
  for (const [raw, kind, expected] of rows) {
    it(`${kind} ${raw}`, () => assert.equal(safeMediaSrc(raw, kind), expected));
  }
});

table("dataUrlType", dataUrlType, [
  ["data:Image/PNG;base64,AAAA", "image/png"],
  ["data:,plain", ""],
  [" data:text/plain;charset=utf-8,hi", "text/plain"],
  ["https://example.com", null],
  ["data:no-comma", null],
  [undefined, null],
]);

table("remoteOrigin", remoteOrigin, [
  ["https://cdn.example:8443/a/b.png?x", "https://cdn.example:8443"],
  ["http://example.com", "http://example.com"],
  ["data:image/png;base64,AAAA", null],
  ["blob:https://notebook.example/0b5c", null],
  ["not a url", null],
]);

describe("originSet", () => {
  it("keeps the origin of each http(s) entry and drops the rest", () => {
    const origins = originSet(["https://cdn.example/images/", "http://localhost:8888/x", "ftp://x.example", 7, "cdn"]);
    assert.deepEqual([...origins], ["https://cdn.example", "http://localhost:8888"]);
  });
  it("is empty for a value that is not a list", () => {
    assert.equal(originSet("https://cdn.example").size, 0);
  });
});

table("previewKind", previewKind, [
  ["image/png", "image"],
  [" Audio/ogg", "audio"],
  ["video/webm", "video"],
  ["application/pdf", null],
  ["text/html", null],
  [null, null],
]);

table("hostLabel", hostLabel, [
  ["https://www.example.com/docs", "example.com"],
  ["https://docs.python.org/3/", "docs.python.org"],
  ["mailto:someone@example.com", "someone@example.com"],
  ["relative/path", ""],
  ["", ""],
]);
