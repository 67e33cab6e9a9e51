# zproxy — developer commands.
#
#   make test    install the test dependencies (psql, Java, DynamoDB Local),
#                start DynamoDB Local, run go vet, a gofmt check and every
#                test with the race detector, stop DynamoDB Local
#   make run     start zproxy on the embedded store (ARGS="--listen ..." to pass flags)
#   make build   build bin/zproxy
#   make bench   run the Go benchmarks (BENCH=regexp, PKG=./zorder/...)
#   make fuzz    run every fuzz target for FUZZTIME (default 10s) each
#   make difftest  a long differential campaign against PostgreSQL 15
#                (DIFFTEST="-duration 30m -seed 7" to pass flags)
#
# Go is expected on PATH or at /usr/local/go/bin.

SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin

GO        ?= go
ARGS      ?=
BENCH     ?= .
BENCHTIME ?= 1s
PKG       ?= ./...
FUZZTIME  ?= 10s
DIFFTEST  ?=

.PHONY: test test-deps run build bench fuzz difftest clean

test: test-deps
	scripts/test.sh

test-deps:
	scripts/install-test-deps.sh
	scripts/install-client-deps.sh

run:
	$(GO) run ./cmd/zproxy $(ARGS)

build:
	$(GO) build -o bin/zproxy ./cmd/zproxy

bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -benchmem $(PKG)

fuzz:
	FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

difftest:
	scripts/difftest.sh $(DIFFTEST)

clean:
	rm -rf bin
