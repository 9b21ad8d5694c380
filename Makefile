# gpugb — GPU GROUP BY for PostgreSQL.  PGXS for the host C code, nvcc for cuda/.
#
#   make && make install            CUDA from $(CUDA_HOME) (default /usr/local/cuda)
#   make installcheck               pg_regress tests in sql/ against a running server
#   make CUDA_ARCHS="80 90"         GPU architectures to build machine code for
#
# The CUDA runtime is linked statically: gpugb.so has no load-time dependency on
# libcuda or libcudart, so it loads (and falls back to the CPU) on machines with
# no GPU and no driver.

MODULE_big = gpugb
EXTENSION  = gpugb
DATA       = sql/gpugb--0.1.sql
PGFILEDESC = "gpugb - GPU GROUP BY aggregation"

HOST_SRCS = $(sort $(wildcard src/*.c))
CUDA_SRCS = $(sort $(wildcard cuda/*.cu))
OBJS      = $(HOST_SRCS:.c=.o) $(CUDA_SRCS:.cu=.o)

# setup.sql first: it creates the helpers the others use.
REGRESS   = setup plan matrix edge filter conditions numeric numeric_free interval text text_minmax budget fallback parallel strategy keyexpr order float_variance direct_scan program_batch
REGRESS_OPTS = --inputdir=. --load-extension=gpugb

# GPUGB_TEST_MODE=emulator (default; machines without a GPU run the host
# pipeline against the CPU emulator of the device) or gpu (the real GPU).
# Either way gpugb.require_gpu=on turns any silent fallback into a diff.
GPUGB_TEST_MODE ?= emulator
ifeq ($(GPUGB_TEST_MODE),gpu)
installcheck: export PGOPTIONS = -c gpugb.require_gpu=on
else
installcheck: export PGOPTIONS = -c gpugb.require_gpu=on -c gpugb.emulate_device=on
endif

CUDA_HOME  ?= /usr/local/cuda
NVCC       ?= $(CUDA_HOME)/bin/nvcc
# Machine code for each listed architecture, plus PTX of the last one so newer
# GPUs can JIT it.
CUDA_ARCHS ?= 80 90
comma := ,
NVCC_GENCODE = $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a)) \
               -gencode arch=compute_$(lastword $(CUDA_ARCHS)),code=compute_$(lastword $(CUDA_ARCHS))
NVCC_FLAGS ?= -O3 -std=c++17 --expt-relaxed-constexpr -Xcompiler -fPIC,-Wall \
              -Xcompiler -fvisibility=hidden
NVCC_FLAGS += $(NVCC_GENCODE)

PG_CPPFLAGS += -Icuda
# -ffp-contract=off: the filler computes float expressions as PostgreSQL does, one rounding per
# operator; a fused multiply-add would round once and could differ in the last bit.
PG_CFLAGS   += -ffp-contract=off -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers
# CI builds with GPUGB_WERROR=1: a new warning fails the build.
ifdef GPUGB_WERROR
PG_CFLAGS   += -Werror
NVCC_WERROR  = -Werror all-warnings
endif
SHLIB_LINK  += -L$(CUDA_HOME)/lib64 -lcudart_static -lstdc++ -ldl -lpthread -lrt

# LLVM bitcode for JIT is only made for C sources; our hot loops are not
# expression evaluation, so skip it rather than teach PGXS about .cu files.
override with_llvm = no

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

cuda/%.o: cuda/%.cu cuda/gpugb_device.h cuda/gpugb_fsum.h $(wildcard cuda/*.cuh) src/heuristics.h src/strategy.h
	$(NVCC) $(NVCC_FLAGS) $(NVCC_WERROR) -I$(CUDA_HOME)/include -c $< -o $@

$(HOST_SRCS:.c=.o): $(wildcard src/*.h) cuda/gpugb_device.h cuda/gpugb_fsum.h

.PHONY: test-unit
