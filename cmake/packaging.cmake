# Debian packages of the installed tree (`./run.sh package`, or `cpack` in a
# build directory): three packages from the install components.
#   softdoca        runtime: the shared libraries
#   softdoca-dev    headers, pkg-config modules, static libraries, the device
#                   libraries, the dpacc stand-in, the DOCA tree's VERSION
#                   files and READMEs
#   softdoca-tools  softdoca-perf, softdoca-perf-v202, softdoca-info
# They install into SOFTDOCA_PACKAGE_PREFIX, /opt/softdoca by default: never
# into /opt/mellanox/doca, where a real DOCA installation lives. A user who
# wants DOCA's path builds packages for it (README); dpkg then refuses to
# overwrite a file another package (a real DOCA) owns, and the preinsts (below)
# a file no package owns.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME softdoca)
set(CPACK_PACKAGE_VENDOR softdoca)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "softdoca maintainers <softdoca@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX ${SOFTDOCA_PACKAGE_PREFIX})
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME softdoca)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
	"DOCA Core, RDMA, DPA, argp and FlexIO libraries over UCX (shared memory, TCP)")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME softdoca-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEV_DESCRIPTION
	"Headers, pkg-config modules and static libraries to build DOCA programs on softdoca")
set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME softdoca-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION net)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "softdoca-perf (perftest-style benchmarks) and softdoca-info")

# Depends on Debian's packages come from what the binaries link
# (dpkg-shlibdeps: libucx0, libjson-c5, zlib1g, libc6); on each other, from
# the component dependencies, at the exact version.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)
set(CPACK_COMPONENT_TOOLS_DEPENDS runtime)
# The tools link the runtime package's libraries: dpkg-shlibdeps finds them
# in the build tree (their package comes from the component dependency).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/src)
# The .pc modules name ucx and json-c (Requires.private), the static
# libraries need zlib, and dpacc is Python reading clang's AST.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libucx-dev, libjson-c-dev, zlib1g-dev, pkg-config")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "python3, clang")

# Nor over files of a DOCA unpacked there without dpkg: each package's preinst
# checks its own files (cmake/deb/preinst.cmake writes it at cpack time).
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/deb/preinst.cmake)
set(CPACK_SDOCA_PREINST_TEMPLATE ${CMAKE_CURRENT_LIST_DIR}/deb/preinst.in)
set(CPACK_SDOCA_PREINST_DIR ${PROJECT_BINARY_DIR}/deb-preinst)
foreach(component RUNTIME DEV TOOLS)
	string(TOLOWER ${component} lower)
	set(CPACK_DEBIAN_${component}_PACKAGE_CONTROL_EXTRA ${CPACK_SDOCA_PREINST_DIR}/${lower}/preinst)
	set(CPACK_DEBIAN_${component}_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
endforeach()

include(CPack)
