"""MkDocs hooks for the docs site (mkdocs.yml): the repository's README as its home page and CONTRIBUTING beside
docs/, docs/README.md as the contents, each data folder's README.md as its about.md (the folder's index.html is its
sweep's page), and every relative link rewritten from where its file is in the repository to where it lands in the
site, so that the files read the same on a code host and in the site."""

import os
import posixpath
import re

from mkdocs.structure.files import File

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# files outside docs/ that the site holds: their path in the repository -> their place in the site
OUTSIDE = {"README.md": "index.md", "CONTRIBUTING.md": "contributing.md", "tools/jvm-events.jfc": "jvm-events.jfc"}

LINK = re.compile(r"(\]\()([^)\s#]+)(#[^)\s]*)?(\))")
# a reference-style link's definition, "[name]: target", rewritten alike
REFERENCE = re.compile(r"(?m)^(\[[^\]]+\]:[ \t]+)([^\s#]+)(#\S*)?()$")


def folder_page(repo_folder):
    """What a link to a folder opens in the site, as a code host shows its README under its files: its README's
    about.md, else its index.html (a sweep's page), else its nearest parent's; None outside docs/."""
    while repo_folder.startswith("docs/") or repo_folder == "docs":
        if os.path.isfile(os.path.join(ROOT, repo_folder, "README.md")):
            return repo_folder + "/README.md"
        if os.path.isfile(os.path.join(ROOT, repo_folder, "index.html")) and repo_folder != "docs":
            return repo_folder + "/index.html"
        repo_folder = posixpath.dirname(repo_folder)
    return None


def site_path(repo_path):
    """Where a file of the repository lands in the site; None where the site does not hold it."""
    if repo_path in OUTSIDE:
        return OUTSIDE[repo_path]
    if not repo_path.startswith("docs/"):
        return None
    inside = repo_path[len("docs/"):]
    if inside == "README.md":
        return "contents.md"
    if inside.endswith("/README.md"):
        return inside[: -len("README.md")] + "about.md"
    return inside


def on_files(files, config):
    # the site's own names for docs/README.md and the data folders' README.md (each folder's index.html is a page);
    # mkdocs.yml leaves them out (exclude_docs) so that they do not collide with those pages first
    docs = os.path.join(ROOT, "docs")
    for folder, _, names in os.walk(docs):
        if "README.md" in names:
            repo_path = posixpath.join("docs", os.path.relpath(folder, docs).replace(os.sep, "/"), "README.md").replace("/./", "/")
            files.append(File.generated(config, site_path(repo_path), abs_src_path=os.path.join(folder, "README.md")))
    for repo_path, in_site in OUTSIDE.items():
        files.append(File.generated(config, in_site, abs_src_path=os.path.join(ROOT, repo_path)))
    return files


def repo_path_of(src_uri):
    """The repository path of a page by its place in the site."""
    for repo_path, in_site in OUTSIDE.items():
        if in_site == src_uri:
            return repo_path
    if src_uri == "contents.md":
        return "docs/README.md"
    if src_uri.endswith("about.md"):
        return "docs/" + src_uri[: -len("about.md")] + "README.md"
    return "docs/" + src_uri


def published_pages(repo_folder):
    """The HTML pages of a data folder (a sweep's page, a run's, a comparison's), its own and those of its subfolders
    that have no README of their own (whose about.md lists theirs), as links relative to the folder."""
    pages = []
    top = os.path.join(ROOT, repo_folder)
    for folder, subfolders, names in os.walk(top):
        subfolders[:] = sorted(d for d in subfolders if not os.path.isfile(os.path.join(folder, d, "README.md")))
        pages += [os.path.relpath(os.path.join(folder, n), top).replace(os.sep, "/") for n in names if n.endswith(".html")]
    return sorted(pages)


def on_page_markdown(markdown, page, config, files):
    here = repo_path_of(page.file.src_uri)
    if page.file.src_uri.endswith("about.md") and here.startswith("docs/"):
        # every page of the data reachable from its about page: a reader of the site has no file listing to find them
        pages = published_pages(posixpath.dirname(here))
        if pages:
            markdown += "\n\n## Its pages\n\n" + "\n".join("- [%s](%s)" % (p, p) for p in pages) + "\n"

    def rewrite(m):
        target = m.group(2)
        if re.match(r"^[a-z]+:", target) or target.startswith("/"):
            return m.group(0)
        repo_target = posixpath.normpath(posixpath.join(posixpath.dirname(here), target))
        if target.endswith("/") or os.path.isdir(os.path.join(ROOT, repo_target)):
            repo_target = folder_page(repo_target)
        in_site = None if repo_target is None else site_path(repo_target)
        if in_site is None:
            return m.group(0)  # left as written: strict mode names it as not found
        relative = posixpath.relpath(in_site, posixpath.dirname(page.file.src_uri) or ".")
        return m.group(1) + relative + (m.group(3) or "") + m.group(4)

    return REFERENCE.sub(rewrite, LINK.sub(rewrite, markdown))
