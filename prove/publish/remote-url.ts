/** Remote URLs: which GitHub repository one names, where a published file is served, and how to print one safely. */

export interface GitHubRepository {
  readonly owner: string;
  readonly name: string;
}

const gitHubHosts = new Set(["github.com", "www.github.com"]);
const schemes = new Set(["https", "http", "ssh", "git", "git+ssh", "ssh+git"]);
const segment = /^[A-Za-z0-9_.-]+$/;

function repositoryOf(host: string, path: string): GitHubRepository | undefined {
  if (!gitHubHosts.has(host.toLowerCase())) return undefined;
  const parts = path
    .replace(/^\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "")
    .split("/");
  const [owner, name] = parts;
  if (parts.length !== 2 || owner === undefined || name === undefined || !segment.test(owner) || !segment.test(name)) return undefined;
  return { owner, name };
}

/** The github.com repository a remote URL names (https, ssh or scp-like `git@github.com:o/r.git`); undefined otherwise. */
export function gitHubRepository(url: string): GitHubRepository | undefined {
  const withScheme = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?([^/:?#]+)(?::\d*)?(\/[^?#]*)$/i.exec(url.trim());
  if (withScheme !== null) {
    const [, scheme = "", host = "", path = ""] = withScheme;
    return schemes.has(scheme.toLowerCase()) ? repositoryOf(host, path) : undefined;
  }
  const scpLike = /^(?:[^@/:]+@)?([^/:]+):(?!\/\/)(.+)$/.exec(url.trim());
  if (scpLike !== null) {
    const [, host = "", path = ""] = scpLike;
    return repositoryOf(host, path);
  }
  return undefined;
}

/** `text` with the user name and password taken out of every `scheme://user:password@host` URL in it: safe to print or store. */
export function withoutCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^@/\s]+@/gi, "$1");
}

/** Where published files are served, or why that is unknown. */
export type UrlBase =
  | { readonly kind: "base"; readonly base: string }
  /** Not a GitHub remote, and no --image-url. */
  | { readonly kind: "needs-image-url" }
  /** --image-url is not an absolute http(s) URL. */
  | { readonly kind: "bad-image-url" };

const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** The URL a published file's path is appended to: `--image-url` when given, else GitHub's raw URL of the branch. */
export function imageUrlBase(remoteUrl: string, branch: string, imageUrl: string | undefined): UrlBase {
  if (imageUrl !== undefined) {
    const base = imageUrl.trim().replace(/\/+$/, "");
    return /^https?:\/\/[^/\s]+/i.test(base) && URL.canParse(base) ? { kind: "base", base } : { kind: "bad-image-url" };
  }
  const repository = gitHubRepository(remoteUrl);
  if (repository === undefined) return { kind: "needs-image-url" };
  return { kind: "base", base: `https://github.com/${repository.owner}/${repository.name}/raw/${encodePath(branch)}` };
}

/** The URL of the published file at `path` (relative to the branch's root). */
export const fileUrl = (base: string, path: string) => `${base}/${encodePath(path)}`;
