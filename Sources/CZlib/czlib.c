// Empty: everything is in include/czlib.h.
