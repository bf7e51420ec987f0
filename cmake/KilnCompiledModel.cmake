#===- cmake/KilnCompiledModel.cmake - models compiled at build time ---------===#
#
# kiln_add_compiled_model, for Kiln's own tree (AddKiln.cmake includes this
# file) and for projects that find an installed Kiln (KilnConfig.cmake
# includes it): there the tool and the runtime are the imported
# Kiln::kiln-compile and Kiln::KilnNPURuntime.
#===------------------------------------------------------------------------===#
include_guard(GLOBAL)

# kiln_add_compiled_model(<target> MODEL <file> [CONFIG <file>]
#                         [CPP_CLASS ns::Name] [SYMBOL prefix]
#                         [TARGET cpu|npu] [ARGS ...])
# Runs kiln-compile on MODEL at build time and makes <target> a static
# library holding the object, whose users see the generated <target>.h.
# TARGET npu compiles with --target=npu and makes <target> link Kiln's NPU
# runtime (KilnNPURuntime: its abseil and zlib, and the C++ standard library
# through CMake's link language), which the object calls for its NPU
# segments; the default, cpu, needs only libm. Either way <target> also
# links Kiln's CPU thread runtime (KilnCPUThreads: C and POSIX threads),
# which the object refers to weakly: a program that sets a pool
# (set_threads(n) of the C++ class, kiln_cpu_set_thread_pool in C) runs the
# model's parallel loops on it. ARGS go to kiln-compile as
# they are (--input-shapes=..., --cpu=..., --npu-config=..., ...).
function(kiln_add_compiled_model target)
  cmake_parse_arguments(ARG "" "MODEL;CONFIG;CPP_CLASS;SYMBOL;TARGET" "ARGS"
    ${ARGN})
  if(NOT ARG_MODEL)
    message(FATAL_ERROR "kiln_add_compiled_model(${target}): MODEL is missing")
  endif()
  if(NOT ARG_TARGET)
    set(ARG_TARGET cpu)
  endif()
  if(NOT ARG_TARGET STREQUAL "cpu" AND NOT ARG_TARGET STREQUAL "npu")
    message(FATAL_ERROR "kiln_add_compiled_model(${target}): TARGET must be "
      "cpu or npu, got '${ARG_TARGET}'")
  endif()
  # Inside Kiln's build the tool and the runtime are its own targets; an
  # installed Kiln exports them under Kiln::.
  if(TARGET kiln-compile)
    set(tool kiln-compile)
    set(tool_depends kiln-compile)
  else()
    set(tool Kiln::kiln-compile)
    set(tool_depends $<TARGET_FILE:Kiln::kiln-compile>)
  endif()
  if(TARGET KilnCPUThreads)
    set(threads_runtime KilnCPUThreads)
  else()
    set(threads_runtime Kiln::KilnCPUThreads)
  endif()
  if(TARGET KilnNPURuntime)
    set(npu_runtime KilnNPURuntime)
  else()
    set(npu_runtime Kiln::KilnNPURuntime)
  endif()

  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.model)
  set(object ${dir}/${target}.o)
  set(header ${dir}/${target}.h)
  set(args ${ARG_MODEL} -o ${object} --header=${header}
    --target=${ARG_TARGET})
  set(depends ${tool_depends} ${ARG_MODEL})
  if(ARG_CONFIG)
    list(APPEND args --config=${ARG_CONFIG})
    list(APPEND depends ${ARG_CONFIG})
  endif()
  if(ARG_CPP_CLASS)
    list(APPEND args --cpp-class=${ARG_CPP_CLASS})
  endif()
  if(ARG_SYMBOL)
    list(APPEND args --symbol=${ARG_SYMBOL})
  endif()
  list(APPEND args ${ARG_ARGS})
  add_custom_command(OUTPUT ${object} ${header}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND $<TARGET_FILE:${tool}> ${args}
    DEPENDS ${depends}
    COMMENT "kiln-compile ${target} (${ARG_TARGET})"
    VERBATIM)
  set_source_files_properties(${object} PROPERTIES
    EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_library(${target} STATIC ${object} ${header})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${target} INTERFACE ${dir})
  target_link_libraries(${target} INTERFACE ${threads_runtime} m)
  if(ARG_TARGET STREQUAL "npu")
    target_link_libraries(${target} INTERFACE ${npu_runtime})
  endif()
endfunction()
