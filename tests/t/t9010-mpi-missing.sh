#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An fslab built without MPI, started by mpirun as several ranks, would
# run the whole job once per rank and store each as if it were the job:
# it refuses before any work (exit 2), naming the package to install and
# the rebuild, and stores nothing.  One rank is still fine, and a build
# with MPI runs under mpirun as before.  The build without MPI is `make
# no-mpi` (only par.c compiled again), or FSLAB_NOMPI.
. "$(dirname "$0")/lib.sh"
need_cmd mpirun make sqlite3
scratch_dir
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
MPIRUN="mpirun --oversubscribe --allow-run-as-root"

NOMPI=${FSLAB_NOMPI:-}
if [ -z "$NOMPI" ]; then
	if ! make -C "$TOP" no-mpi >"$SCRATCH/make.out" 2>&1; then
		not_ok "make no-mpi" "$(tail -5 "$SCRATCH/make.out")"
		finish
		exit 1
	fi
	NOMPI=$TOP/build/no-mpi/fslab
fi
v=$("$NOMPI" --version)
[[ $v == *"(mpi: no)"* ]] && ok "the build without MPI says mpi: no" ||
	not_ok "the build without MPI says mpi: no" "$v"

mkdir "$SCRATCH/d"
timeout 120 $MPIRUN -np 2 "$NOMPI" run --target "dir:$SCRATCH/d" --db "$DB" \
	--workload metadata:files=20,threads=1 --tag two >"$SCRATCH/np2.out" 2>"$SCRATCH/np2.err"
rc=$?
[ $rc -eq 2 ] && ok "mpirun -np 2 of a build without MPI exits 2" ||
	not_ok "mpirun -np 2 of a build without MPI exits 2" "exit $rc" "$(tail -5 "$SCRATCH/np2.err")"
grep -q "^fslab: error: started by mpirun as one of 2 ranks, but this fslab was built without MPI .*apt-get install libopenmpi-dev.* and rebuild fslab (make clean && make)" "$SCRATCH/np2.err" &&
	ok "the message names the package and the rebuild" ||
	not_ok "the message names the package and the rebuild" "$(head -5 "$SCRATCH/np2.err")"
[ ! -e "$DB" ] && [ -z "$(ls -A "$SCRATCH/d")" ] && ! grep -q 'run complete' "$SCRATCH/np2.out" &&
	ok "nothing stored, nothing made in the target" ||
	not_ok "nothing stored, nothing made in the target" "$(ls -A "$SCRATCH")" "$(ls -A "$SCRATCH/d")"

# MPICH's Hydra (PMI) and a PMIx launcher that names only the rank.
check_exit "PMI_SIZE=3 (MPICH): refused" 2 env PMI_SIZE=3 PMI_RANK=0 "$NOMPI" list
check_exit "PMIX_RANK=1 alone: one of at least two, refused" 2 env PMIX_RANK=1 "$NOMPI" list
# One rank is a world of one, as without mpirun.
check_exit "mpirun -np 1: runs" 0 timeout 120 $MPIRUN -np 1 "$NOMPI" list
[ ! -e "$DB" ] && ok "still nothing stored" || not_ok "still nothing stored"

# The build with MPI: one job, one stored run, as before.
if "$FSLAB" --version | grep -q 'mpi: yes'; then
	timeout 120 $MPIRUN -np 2 "$FSLAB" run --target "dir:$SCRATCH/d" --db "$DB" \
		--workload metadata:files=20,threads=1 --tag mpi >"$SCRATCH/mpi.out" 2>&1
	rc=$?
	n=$(sqlite3 "$DB" "select count(*) from runs" 2>&1)
	[ $rc -eq 0 ] && [ "$n" = 1 ] && ok "a build with MPI: mpirun -np 2 stores one run" ||
		not_ok "a build with MPI: mpirun -np 2 stores one run" "exit $rc, $n runs" "$(tail -5 "$SCRATCH/mpi.out")"
else
	ok "# SKIP $FSLAB is built without MPI"
fi
finish
