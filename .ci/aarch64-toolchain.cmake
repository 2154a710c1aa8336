# Cross-compiles for 64-bit Arm (Debian's g++-aarch64-linux-gnu) and runs the results under qemu-user: the NEON
# path of math/wide_float.h is built and tested on this x86 machine (.ci/build-native.sh arm64).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)   # Eigen's headers are architecture-free (/usr/include/eigen3)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
