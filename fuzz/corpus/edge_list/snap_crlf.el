# Directed graph: example.txt
# FromNodeId	ToNodeId
0	1
0	2
1	2
2	0
