#!/bin/sh
# curate-cc COMPILER ARGS...: the compiler launcher of CMake builds in
# curate's C/C++ images. Made by curate.
# CMake calls the compiler by its real path (/usr/bin/c++), past ccache's
# links in PATH, so the launcher brings ccache in: the image's cache makes
# a rebuild after a patch cheap. -Wno-error comes last, after the project's
# -Werror, so a warning that a newer compiler than the project's CI finds
# never fails the build in both states (-Werror=NAME stays an error).
if command -v ccache >/dev/null 2>&1; then
  exec ccache "$@" -Wno-error
fi
exec "$@" -Wno-error
