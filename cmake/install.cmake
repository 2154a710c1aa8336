# `cmake --install` of the native library: pbd::core (the static libraries of its layers), its public headers
# (src/include/pbd) and a CMake package, so that a C++ project finds it with find_package(pbd CONFIG REQUIRED) and
# links pbd::core (examples/cpp-hanging-cloth).
include(CMakePackageConfigHelpers)

# The layers (pbd::world, pbd::mesh, ...) are installed as the static libraries pbd::core links, not as entry points.
get_property(PBD_LAYER_TARGETS GLOBAL PROPERTY PBD_LAYER_TARGETS)
set_target_properties(pbd_core PROPERTIES EXPORT_NAME core)
set_target_properties(pbd_abi PROPERTIES EXPORT_NAME abi)
set_target_properties(pbd_flags PROPERTIES EXPORT_NAME flags)  # linked privately: named for the static link only
install(TARGETS pbd_core ${PBD_LAYER_TARGETS} pbd_abi pbd_flags EXPORT pbdTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/include/pbd DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(PBD_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pbd)
install(EXPORT pbdTargets NAMESPACE pbd:: DESTINATION ${PBD_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pbdConfig.cmake.in ${PROJECT_BINARY_DIR}/pbdConfig.cmake
  INSTALL_DESTINATION ${PBD_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pbdConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pbdConfig.cmake ${PROJECT_BINARY_DIR}/pbdConfigVersion.cmake
  DESTINATION ${PBD_CMAKE_DIR})
