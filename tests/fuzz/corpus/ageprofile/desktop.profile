# SPDX-License-Identifier: GPL-2.0-or-later
# desktop - a home directory: file sizes follow a lognormal body
# (median 4 KiB, sigma 1.8 in ln) up to 256 KiB and a Pareto
# tail above it; most files live two to five directories down;
# ages spread over many generations (one generation = as many
# operations as there were live files when the fill ended).
# Weights are percentages.
[size]
0	2.0
512	10.4
1k	9.7
2k	12.9
4k	15.0
8k	15.0
16k	12.9
32k	9.7
64k	6.2
128k	3.5
256k	1.7
1m	0.6
4m	0.25
16m	0.1
64m	0.05

[depth]
0	2
1	8
2	20
3	25
4	20
5	15
6	7
7	3

[age]
0.05	2
0.25	8
1	20
3	30
inf	40
