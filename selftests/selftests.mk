# fragment: see top-level Makefile
