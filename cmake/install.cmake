# What `cmake --install` puts under the prefix: libtiergraph.so with the
# public headers (include/tiergraph/ and the generated version.h), the
# tiergraph program, the CMake package (find_package(tiergraph) gives
# tiergraph::tiergraph) and tiergraph.pc. Both package files locate the
# prefix from where they lie, so an installed tree can be moved.
include(CMakePackageConfigHelpers)

set(TG_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tiergraph)

install(TARGETS tiergraph_shared EXPORT tiergraphTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tiergraph RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tiergraph DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/generated/tiergraph/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tiergraph)

install(EXPORT tiergraphTargets NAMESPACE tiergraph:: DESTINATION ${TG_CMAKE_PACKAGE_DIR})
# The GPU engine, where built, is inside libtiergraph.so; the package says so.
if(TG_HAVE_CUDA)
  set(TG_PACKAGE_HAS_GPU TRUE)
else()
  set(TG_PACKAGE_HAS_GPU FALSE)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tiergraphConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/tiergraphConfig.cmake INSTALL_DESTINATION ${TG_CMAKE_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/tiergraphConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/tiergraphConfig.cmake ${CMAKE_BINARY_DIR}/package/tiergraphConfigVersion.cmake
  DESTINATION ${TG_CMAKE_PACKAGE_DIR})

# pkg-config's ${pcfiledir} is the folder of the .pc file: the prefix is
# found relative to it unless the directories were given as absolute paths.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(TG_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(TG_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(TG_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH TG_PC_UP /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
  string(REGEX REPLACE "/$" "" TG_PC_UP "${TG_PC_UP}")
  set(TG_PC_PREFIX "\${pcfiledir}/${TG_PC_UP}")
  set(TG_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(TG_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/tiergraph.pc.in ${CMAKE_BINARY_DIR}/package/tiergraph.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/tiergraph.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
