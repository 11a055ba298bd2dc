# mcserv — build, run and test.
#
#   make            build/mcserv and build/mcbench (gcc, -O2, warnings are errors)
#   make run        install missing dependencies, build, run the server in run/
#   make test       install missing dependencies, then every check and test:
#                   gcc and clang builds, generated tables, format, unit tests,
#                   end-to-end tests with real clients, and all of it again
#                   under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      the default benchmark set (see BENCHMARKS.md)
#
# Variables: CC (compiler), BUILD (output folder), SAN=1 (sanitizer build),
# COUNT_ALLOC=1 (counting-allocator build, below).

CC      ?= cc
BUILD   ?= build
SAN     ?=
COUNT_ALLOC ?=
RUN_DIR ?= run

CFLAGS_COMMON = -std=c17 -D_GNU_SOURCE -Isrc -Wall -Wextra -Werror -g -MMD -MP
ifeq ($(SAN),1)
  OPTFLAGS = -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
  LDSAN    = -fsanitize=address,undefined
else
  OPTFLAGS = -O2
  LDSAN    =
endif
CFLAGS  += $(CFLAGS_COMMON) $(OPTFLAGS)
LDFLAGS += $(LDSAN)
SERVER_LIBS = -ledit -lsystemd   # the console's line editor; sd_notify (contrib/mcserv.service)
LDLIBS   = -ldeflate -lcurl -lwslay -lssl -lcrypto -ljansson -lpthread -lm
LUA_CFLAGS := $(shell pkg-config --cflags lua5.4 2>/dev/null)
LUA_LIBS   := $(shell pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4)

# The shared library of codecs and data structures (server, bench, tests):
# core, proto, data and world, and the pure parts of game, net and admin
# (parsers, codecs, rate limits) that the unit tests and fuzzers link.
PURE_SRC   := src/game/cmd_parser.c src/game/cmd_spec.c src/game/cmd_args.c src/game/usercache.c src/game/cmd_complete.c src/game/lists_file.c src/net/ratelimit.c src/net/ip_table.c \
              src/net/outq.c src/net/iothreads.c \
              src/admin/http_parse.c src/admin/rcon_packet.c src/admin/rcon_limiter.c \
              src/admin/query_packet.c src/admin/mgmt_rpc.c src/admin/mgmt_handshake.c
LIB_SRC    := $(wildcard src/core/*.c src/proto/*.c src/data/*.c src/world/*.c) $(PURE_SRC)
SERVER_SRC := $(filter-out $(PURE_SRC),$(wildcard src/net/*.c src/admin/*.c src/game/*.c)) src/main.c
BENCH_SRC  := $(wildcard src/bench/*.c)
UNIT_SRC   := $(wildcard tests/unit/*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

LIB      := $(BUILD)/libmc.a
MCSERV   := $(BUILD)/mcserv
MCBENCH  := $(BUILD)/mcbench
UNIT     := $(BUILD)/unit_tests

.PHONY: all run test deps unit e2e check-generated generate format format-check bench clean fuzz

all: $(MCSERV) $(MCBENCH) $(BUILD)/worldgen

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(if $(findstring src/bench/,$<),$(LUA_CFLAGS)) -c $< -o $@

$(LIB): $(call obj,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

# Counting-allocator build (issue 12; bench/alloc.sh):
#   make BUILD=build-count COUNT_ALLOC=1 build-count/mcserv
# links tests/alloc/alloc_count.c (malloc & co. counted per tick, see
# core/tickstat.h) into mcserv only, never into build/ or libmc.
ifeq ($(COUNT_ALLOC),1)
  ifeq ($(BUILD),build)
    $(error COUNT_ALLOC=1 needs its own BUILD folder, e.g. BUILD=build-count)
  endif
  COUNT_OBJ := $(call obj,tests/alloc/alloc_count.c)
  LDFLAGS   += -rdynamic
endif

$(MCSERV): $(call obj,$(SERVER_SRC)) $(COUNT_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(SERVER_LIBS) $(LDLIBS)

$(MCBENCH): $(call obj,$(BENCH_SRC)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LUA_LIBS) $(LDLIBS)

$(UNIT): $(call obj,$(UNIT_SRC)) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -ljansson $(LDLIBS)

unit: $(UNIT)
	./$(UNIT)

deps:
	@tools/install-deps.sh

run:
	@tools/install-deps.sh build
	@$(MAKE) --no-print-directory all
	@mkdir -p $(RUN_DIR)
	cd $(RUN_DIR) && exec ../$(MCSERV)

test: deps
	@tests/run-all.sh

e2e: $(MCSERV) $(MCBENCH)
	MCSERV=$(abspath $(MCSERV)) MCBENCH=$(abspath $(MCBENCH)) node --test --test-reporter=spec --test-concurrency=1 tests/e2e/

# Generated tables: rebuild them, or check the committed copies are current.
# gen_data.js: protocol tables from minecraft-data; gen_biome_params.js: the
# 1.20.1 multi-noise parameter list (data/worldgen/1.20.1); gen_worldgen.js:
# the noise router and biome tree compiled from data/worldgen/1.20.1.
BIOME_PARAMS = data/worldgen/1.20.1/multi_noise_biome_source_parameter_list/overworld.json

generate:
	node tools/gen_data.js src/data
	node tools/gen_biome_params.js $(BIOME_PARAMS)
	node tools/gen_worldgen.js src/data

check-generated:
	@tmp=$$(mktemp -d) && node tools/gen_data.js $$tmp && node tools/gen_worldgen.js $$tmp && \
	  node tools/gen_biome_params.js $$tmp/biome_params.json && \
	  if diff -r -q src/data $$tmp -x biome_params.json >/dev/null && \
	     cmp -s $(BIOME_PARAMS) $$tmp/biome_params.json; then \
	    echo "generated tables: up to date"; rm -rf $$tmp; \
	  else diff -r src/data $$tmp -x biome_params.json | head -20; rm -rf $$tmp; \
	       echo "generated tables are stale: run 'make generate' and commit src/data and data/worldgen"; exit 1; fi

C_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null; \
            git ls-files --others --exclude-standard '*.c' '*.h' 2>/dev/null)

format:
	clang-format -i $(C_FILES)

format-check:
	@clang-format --dry-run --Werror $(C_FILES) && echo "format: clean"

bench: deps all
	bench/run.sh --default

clean:
	rm -rf build build-*

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# World generation follows Java's floating point exactly: no fused multiply-add (wg_noise.h).
$(BUILD)/obj/src/world/%.o $(BUILD)/obj/src/data/worldgen_%.o: CFLAGS += -ffp-contract=off

# Terrain generator tool: timing, sizes, digests, a top-down map and the
# deepslate comparison probe (tools/worldgen.c).
$(BUILD)/worldgen: $(BUILD)/obj/tools/worldgen.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
