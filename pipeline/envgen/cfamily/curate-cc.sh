#!/bin/sh
# curate-cc COMPILER ARGS...: the compiler launcher of CMake builds in
# curate's C/C++ images. Made by curate.
# CMake calls the compiler by its real path (/usr/bin/c++), past ccache's
# links in PATH, so the launcher brings ccache in: the image's cache makes
# a rebuild after a patch cheap. -Wno-error comes last, after the project's
# -Werror, so a warning that a newer compiler than the project's CI finds
# never fails the build in both states (-Werror=NAME stays an error).
# A newer compiler's library headers include less of each other: code
# that used std::numeric_limits with only <string> compiled with the
# project's compiler. When GCC names the header a failed compile lacks
# ("did you forget to '#include <limits>'?"), the file is compiled again
# with that header included first (-include), as the older library did.
cache=""
command -v ccache >/dev/null 2>&1 && cache=ccache
err=$(mktemp 2>/dev/null) || exec $cache "$@" -Wno-error
$cache "$@" -Wno-error 2>"$err"
st=$?
if [ "$st" -ne 0 ]; then
  # GCC names the header for some names; for the ones GCC 11 to 13 took
  # out of other headers' includes it often does not ("'numeric_limits'
  # is not a member of 'std'"), and the standard says where each lives.
  std=$(sed -n "s/.*[^A-Za-z0-9_]\([A-Za-z_][A-Za-z0-9_]*\)[^A-Za-z0-9_ ]* \(is not a member of\|in namespace\) [^A-Za-z0-9_]*std[^A-Za-z0-9_:].*/\1/p" "$err" | sort -u)
  headers=$({
    sed -n 's/.*did you forget to [^#]*#include <\([A-Za-z0-9_./+-]*\)>.*/\1/p' "$err"
    for n in $std; do
      case $n in
        numeric_limits) echo limits ;;
        int8_t|int16_t|int32_t|int64_t|uint8_t|uint16_t|uint32_t|uint64_t|intptr_t|uintptr_t|intmax_t|uintmax_t) echo cstdint ;;
        runtime_error|logic_error|invalid_argument|out_of_range|overflow_error|underflow_error|range_error|domain_error|length_error) echo stdexcept ;;
        unique_ptr|shared_ptr|weak_ptr|make_unique|make_shared|allocator|addressof) echo memory ;;
        move|forward|pair|make_pair|exchange|swap|declval|index_sequence|make_index_sequence|integer_sequence) echo utility ;;
        thread|this_thread) echo thread ;;
        array) echo array ;;
        function|bind|reference_wrapper|hash) echo functional ;;
        min|max|sort|find|find_if|copy|fill|transform|remove_if|reverse|all_of|any_of|none_of|count|count_if|equal|lower_bound|upper_bound|unique) echo algorithm ;;
      esac
    done
  } | sort -u)
  if [ -n "$headers" ]; then
    set -- "$@" -Wno-error
    for h in $headers; do set -- "$@" -include "$h"; done
    echo "curate: note: compiled again with" $(printf -- '-include %s ' $headers) "(the code relied on other headers to include them, as older compilers' did)" >&2
    $cache "$@" 2>"$err"
    st=$?
  fi
fi
cat "$err" >&2
rm -f "$err"
exit "$st"
