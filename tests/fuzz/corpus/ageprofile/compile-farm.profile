# SPDX-License-Identifier: GPL-2.0-or-later
# compile-farm - source and object trees: the size histogram of
# the getdents mail's build machine, 53.8 % of files under 1
# KiB, 45.9 % from 1 KiB to 1 MiB and 0.33 % over 1 MiB (weights
# are percentages); deep trees; short-lived objects and long-
# lived sources.
[size]
0	3.0
256	15.0
512	15.8
1k	20.0
2k	10.0
4k	10.0
8k	9.0
16k	7.0
32k	4.5
64k	2.8
128k	1.6
256k	0.7
1m	0.3
4m	0.25
16m	0.08

[depth]
1	5
2	10
3	20
4	25
5	20
6	12
7	8

[age]
0.1	5
0.5	15
2	30
inf	50
