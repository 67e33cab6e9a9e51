-- Addresses within a network (<<=): the key range from its network address
-- to its broadcast address, the operator kept as the filter, as
-- PostgreSQL's btree serves it (network_subset_support).
SELECT addr, name FROM hosts WHERE addr <<= '10.0.0.0/8'

-- Strictly within (<<): the same range.
SELECT addr FROM hosts WHERE addr << '2001:db8::/32'

-- Written the other way round (>>=): the network contains the column.
SELECT addr FROM hosts WHERE '192.168.0.0/16' >>= addr

-- A cidr index column bounded the same way.
SELECT name FROM hosts WHERE net <<= '192.168.0.0/16'

-- A column containing a constant (>>=) has no such range: a full scan.
SELECT name FROM hosts WHERE addr >>= '10.1.2.3'

-- Equality on the key: a point get.
SELECT name FROM hosts WHERE addr = '10.1.2.3'
