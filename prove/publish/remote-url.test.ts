import { describe, expect, it } from "vitest";
import { fileUrl, imageUrlBase, withoutCredentials } from "./remote-url.ts";

const raw = "https://github.com/acme/shop/raw/scenario-proofs";

describe("the URL a published image is served at", () => {
  it.each([
    ["https", "https://github.com/acme/shop.git", raw],
    ["https without .git", "https://github.com/acme/shop", raw],
    ["https with a trailing slash", "https://github.com/acme/shop/", raw],
    ["https with a token", "https://x-access-token:ghs_T0ken@github.com/acme/shop.git", raw],
    ["https with a user name only", "https://ghp_T0ken@github.com/acme/shop.git", raw],
    ["http", "http://github.com/acme/shop.git", raw],
    ["https on www", "https://www.github.com/acme/shop.git", raw],
    ["ssh", "ssh://git@github.com/acme/shop.git", raw],
    ["ssh with a port", "ssh://git@github.com:22/acme/shop.git", raw],
    ["ssh without .git", "ssh://git@github.com/acme/shop", raw],
    ["scp-like", "git@github.com:acme/shop.git", raw],
    ["scp-like without a user or .git", "github.com:acme/shop", raw],
    [
      "a repository with dots and dashes",
      "git@github.com:acme-inc/shop.web.git",
      "https://github.com/acme-inc/shop.web/raw/scenario-proofs",
    ],
  ])("on GitHub is the repository's raw URL (%s)", (_form, url, base) => {
    expect(imageUrlBase(url, "scenario-proofs", undefined)).toEqual({ kind: "base", base });
  });

  it.each([
    ["GitLab over https", "https://gitlab.com/acme/shop.git"],
    ["GitHub Enterprise", "git@github.acme.internal:acme/shop.git"],
    ["a look-alike host", "https://github.com.evil.example/acme/shop.git"],
    ["a file URL", "file:///srv/git/shop.git"],
    ["a local path", "/srv/git/shop.git"],
    ["a GitHub URL that is not a repository", "https://github.com/acme"],
    ["a GitHub URL below a repository", "https://github.com/acme/shop/tree/main"],
  ])("needs --image-url for %s", (_form, url) => {
    expect(imageUrlBase(url, "scenario-proofs", undefined)).toEqual({ kind: "needs-image-url" });
  });

  it.each([
    ["https://images.example/proofs", "https://images.example/proofs"],
    ["https://images.example/proofs/", "https://images.example/proofs"],
    ["http://localhost:8080/raw//", "http://localhost:8080/raw"],
  ])("is --image-url %s, without its trailing slash, whatever the remote", (imageUrl, base) => {
    expect(imageUrlBase("git@github.com:acme/shop.git", "scenario-proofs", imageUrl)).toEqual({ kind: "base", base });
    expect(imageUrlBase("file:///srv/git/shop.git", "scenario-proofs", imageUrl)).toEqual({ kind: "base", base });
  });

  it.each(["images/", "/srv/proofs", "ftp://images.example/proofs", "https://"])(
    "rejects --image-url %s, which is not an absolute http(s) URL",
    (imageUrl) => {
      expect(imageUrlBase("https://github.com/acme/shop.git", "scenario-proofs", imageUrl)).toEqual({ kind: "bad-image-url" });
    },
  );

  it("encodes each segment of the branch and the path, keeping the slashes", () => {
    const base = imageUrlBase("https://github.com/acme/shop.git", "proofs/pr 7", undefined);
    expect(base).toEqual({ kind: "base", base: "https://github.com/acme/shop/raw/proofs/pr%207" });
    expect(fileUrl("https://images.example", "scenarios/chat/aaaaaaa-bbbbbbb/images/base-a #1.png")).toBe(
      "https://images.example/scenarios/chat/aaaaaaa-bbbbbbb/images/base-a%20%231.png",
    );
  });
});

describe("a remote URL printed or stored", () => {
  it.each([
    ["https://x-access-token:ghs_T0ken@github.com/acme/shop.git", "https://github.com/acme/shop.git"],
    ["https://ghp_T0ken@github.com/acme/shop.git", "https://github.com/acme/shop.git"],
    ["ssh://git@github.com/acme/shop.git", "ssh://github.com/acme/shop.git"],
    ["git@github.com:acme/shop.git", "git@github.com:acme/shop.git"],
    ["fatal: unable to access 'https://u:p%40ss@gitlab.com/a/b.git/': 403", "fatal: unable to access 'https://gitlab.com/a/b.git/': 403"],
  ])("has no credentials: %s", (text, shown) => {
    expect(withoutCredentials(text)).toBe(shown);
  });
});
