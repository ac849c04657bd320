# ntt_install_package(NAME TARGETS t... [DEPS text]): what a user finds of
# library NAME once installed: the targets, exported as ntt::t in
# NAMETargets.cmake; the CMake package NAMEConfig.cmake, made from
# cmake/NAMEConfig.cmake.in, whose @NTT_PACKAGE_DEPS@ becomes DEPS (its
# find_dependency lines), with its version file; and the pkg-config file
# NAME.pc from cmake/NAME.pc.in, relocatable (the prefix is found from the
# .pc file's own directory, @NTT_PC_TO_PREFIX@, so a package installed with
# `cmake --install --prefix DIR` works from DIR).  The .pc templates may
# use any variable of the caller's scope.
include(CMakePackageConfigHelpers)
function(ntt_install_package name)
  cmake_parse_arguments(P "" "DEPS" "TARGETS" ${ARGN})
  set(dir ${CMAKE_INSTALL_LIBDIR}/cmake/${name})
  install(TARGETS ${P_TARGETS} EXPORT ${name}Targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT ${name}Targets NAMESPACE ntt:: DESTINATION ${dir})
  set(NTT_PACKAGE_DEPS "${P_DEPS}")
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/${name}Config.cmake.in
    ${CMAKE_CURRENT_BINARY_DIR}/${name}Config.cmake INSTALL_DESTINATION ${dir})
  write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/${name}ConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${name}Config.cmake
                ${CMAKE_CURRENT_BINARY_DIR}/${name}ConfigVersion.cmake
          DESTINATION ${dir})
  file(RELATIVE_PATH NTT_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${name}.pc.in ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()
