#!/usr/bin/env bash
# test/gpu-box-trim-debs.sh [DIR]  (default .gpu-box/debs)
# Makes the PostgreSQL server package that ../shared/gpu-box/fetch-debs.sh downloads small enough
# for the device tool's 64 MiB working tree: the repository's tracked files are about 42 MB (session
# 47), and the .deb files 29 MB, of which postgresql-15 is 17 MB.  Its JIT bitcode (26 MB unpacked;
# the box builds with_llvm=no and start-postgres.sh removes llvmjit), translations (13 MB) and docs
# go; the package is rebuilt with xz (about 4.7 MB), under its own name, so start-postgres.sh's
# `dpkg -x` of every .deb takes it as before.  Run it once after fetch-debs.sh.
set -euo pipefail
dir=${1:-.gpu-box/debs}
deb=$(ls "$dir"/postgresql-15_*.deb)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -R "$deb" "$work/root"
rm -rf "$work/root/usr/share/locale" "$work/root/usr/lib/postgresql/15/lib/bitcode" "$work/root/usr/share/doc"
dpkg-deb -b --root-owner-group -Zxz -z9 "$work/root" "$work/trimmed.deb" >/dev/null
mv "$work/trimmed.deb" "$deb"
du -sh "$dir" | sed 's/\t.*/ of .deb files in /'; echo "$dir"
