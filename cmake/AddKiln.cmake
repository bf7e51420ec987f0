#===- cmake/AddKiln.cmake - Kiln's CMake wrappers ---------------------------===#
#
# Thin wrappers over AddMLIR that keep our libraries out of upstream's global
# lists (MLIR_DIALECT_LIBS, MLIRTargets), record them in Kiln's own lists and
# export them as Kiln::<name> for find_package(Kiln).
#===------------------------------------------------------------------------===#
include_guard(GLOBAL)

set(KILN_INSTALL_INCLUDE_DIR include/kiln)
set(KILN_INSTALL_CMAKE_DIR lib/cmake/kiln)

# Installs the headers of the current source directory, and the generated
# .inc files of the matching build directory, under include/kiln/<same path>.
function(_kiln_install_headers)
  file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/
    DESTINATION ${KILN_INSTALL_INCLUDE_DIR}/${rel}
    COMPONENT kiln-headers
    FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
  install(DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/
    DESTINATION ${KILN_INSTALL_INCLUDE_DIR}/${rel}
    COMPONENT kiln-headers
    FILES_MATCHING PATTERN "*.inc"
    PATTERN "CMakeFiles" EXCLUDE)
endfunction()

# add_kiln_library(<name> <sources...> [DEPENDS ...] [LINK_LIBS ...]
#                  [MLIR_LIBS <upstream MLIR libraries>])
# A static library of compiler code. MLIR_LIBS are attached through
# mlir_target_link_libraries, so they resolve to libMLIR.so.
function(add_kiln_library name)
  cmake_parse_arguments(ARG "" "KIND" "MLIR_LIBS" ${ARGN})
  add_mlir_library(${name} DISABLE_INSTALL ${ARG_UNPARSED_ARGUMENTS}
    DEPENDS kiln-headers)
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LIBS})
  endif()
  target_include_directories(${name} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}>
    $<INSTALL_INTERFACE:${KILN_INSTALL_INCLUDE_DIR}>)
  set(kind ${ARG_KIND})
  if(NOT kind)
    set(kind OTHER)
  endif()
  set_property(GLOBAL APPEND PROPERTY KILN_${kind}_LIBS ${name})
  set_property(GLOBAL APPEND PROPERTY KILN_ALL_LIBS ${name})
  install(TARGETS ${name} EXPORT KilnTargets
    ARCHIVE DESTINATION lib COMPONENT ${name}
    LIBRARY DESTINATION lib COMPONENT ${name})
  _kiln_install_headers()
endfunction()

# Dialect, conversion and translation libraries: recorded per kind so tools
# can link "all dialects" without asking upstream's global properties.
function(add_kiln_dialect_library name)
  add_kiln_library(${name} KIND DIALECT ${ARGN})
endfunction()
function(add_kiln_conversion_library name)
  add_kiln_library(${name} KIND CONVERSION ${ARGN})
endfunction()
function(add_kiln_translation_library name)
  add_kiln_library(${name} KIND TRANSLATION ${ARGN})
endfunction()

# add_kiln_incgen(<target>): a target for the tablegen outputs declared just
# before (TABLEGEN_OUTPUT), and a dependency of kiln-headers so every library
# sees generated headers before it compiles.
function(add_kiln_incgen target)
  add_public_tablegen_target(${target})
  add_dependencies(kiln-headers ${target})
endfunction()

# add_kiln_doc(<td file without .td> <output name> <subdir> <tblgen flags...>)
# Generates Markdown from TableGen into ${PROJECT_BINARY_DIR}/docs/<subdir>,
# built by the `kiln-doc` target (part of the default build).
function(add_kiln_doc td output subdir)
  set(LLVM_TARGET_DEFINITIONS ${td}.td)
  mlir_tablegen(${output}.md ${ARGN})
  set(out ${PROJECT_BINARY_DIR}/docs/${subdir}/${output}.md)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_BINARY_DIR}/${output}.md ${out}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${output}.md)
  add_custom_target(${output}DocGen DEPENDS ${out})
  add_dependencies(kiln-doc ${output}DocGen)
endfunction()

# add_kiln_tool(<name> <sources...> [LINK_LIBS ...] [MLIR_LIBS ...])
function(add_kiln_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PRIVATE ${ARG_MLIR_LIBS})
  endif()
  # Installed, the tool must still find libMLIR.so and libLLVM.so where they
  # are (/usr/lib/llvm-22/lib), not only in <prefix>/lib: kiln_add_compiled_model
  # runs the installed kiln-compile.
  set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH
    "${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} EXPORT KilnTargets RUNTIME DESTINATION bin
    COMPONENT ${name})
endfunction()

# add_kiln_unittest(<name> <sources...> [LINK_LIBS ...] [MLIR_LIBS ...])
# Debian ships no llvm_gtest, so this links the system GoogleTest. Each test
# case becomes a ctest test (gtest_discover_tests) and the binary is also run
# by lit's GoogleTest format (check-kiln-unit).
function(add_kiln_unittest name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS;MLIR_LIBS" ${ARGN})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/unittests)
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS} GTest::gtest_main
    GTest::gmock)
  if(ARG_MLIR_LIBS)
    mlir_target_link_libraries(${name} PRIVATE ${ARG_MLIR_LIBS})
  endif()
  set_property(GLOBAL APPEND PROPERTY KILN_UNITTESTS ${name})
  gtest_discover_tests(${name} TEST_PREFIX "${name}." DISCOVERY_TIMEOUT 60)
endfunction()

# kiln_add_compiled_model(<target> MODEL <file> ... [TARGET cpu|npu]) is in
# KilnCompiledModel.cmake, which find_package(Kiln) also provides.
include(KilnCompiledModel)

# Installs KilnConfig.cmake and the exported targets; call once, last.
function(kiln_install_package)
  include(CMakePackageConfigHelpers)
  get_property(libs GLOBAL PROPERTY KILN_ALL_LIBS)
  set(KILN_EXPORTED_LIBS ${libs})
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/KilnConfig.cmake.in
    ${PROJECT_BINARY_DIR}/lib/cmake/kiln/KilnConfig.cmake
    INSTALL_DESTINATION ${KILN_INSTALL_CMAKE_DIR})
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/lib/cmake/kiln/KilnConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/lib/cmake/kiln/KilnConfig.cmake
                ${PROJECT_BINARY_DIR}/lib/cmake/kiln/KilnConfigVersion.cmake
                ${PROJECT_SOURCE_DIR}/cmake/KilnCompiledModel.cmake
          DESTINATION ${KILN_INSTALL_CMAKE_DIR} COMPONENT kiln-cmake-exports)
  install(EXPORT KilnTargets NAMESPACE Kiln::
          DESTINATION ${KILN_INSTALL_CMAKE_DIR} COMPONENT kiln-cmake-exports)
endfunction()
