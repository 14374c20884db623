import json, sys
n = int(sys.argv[1])
all_ = json.load(sys.stdin)
keep = [m for m in all_ if m.get("features", {}).get("test_files", 0) >= 1 and m.get("features", {}).get("files_changed", 0) >= 1]
keep.sort(key=lambda m: -m["pr"])
print(" ".join(m["id"] for m in keep[:n]))
