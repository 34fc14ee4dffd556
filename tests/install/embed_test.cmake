# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... -P embed_test.cmake
#
# Installs the build into WORK_DIR/prefix, then builds examples/embed against
# it twice, as users would: a CMake project with find_package(tiergraph), and
# one g++ command with `pkg-config --cflags --libs tiergraph`; runs both.
# Also checks that the .so exports nothing but the tiergraph:: API.
cmake_minimum_required(VERSION 3.24)

foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "embed_test.cmake needs -D${var}=...")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

function(step name)
  message(STATUS "install.embed: ${name}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install.embed: ${name} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# Relative to the prefix, as the build placed them (GNUInstallDirs: lib, or
# lib/<multiarch> for a /usr prefix).
file(GLOB_RECURSE config_files ${prefix}/*/tiergraphConfig.cmake)
file(GLOB_RECURSE pc_files ${prefix}/*/tiergraph.pc)
file(GLOB_RECURSE libraries ${prefix}/*/libtiergraph.so)
foreach(list config_files pc_files libraries)
  list(LENGTH ${list} n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "install.embed: expected one of ${list} under ${prefix}, found: ${${list}}")
  endif()
endforeach()
get_filename_component(pc_dir ${pc_files} DIRECTORY)
get_filename_component(lib_dir ${libraries} DIRECTORY)
foreach(header tiergraph.h graph.h run.h error.h version.h)
  if(NOT EXISTS ${prefix}/include/tiergraph/${header})
    message(FATAL_ERROR "install.embed: ${prefix}/include/tiergraph/${header} was not installed")
  endif()
endforeach()
if(NOT EXISTS ${prefix}/bin/tiergraph)
  message(FATAL_ERROR "install.embed: the tiergraph program was not installed")
endif()

# Dynamic symbols the .so defines: the API only (and the version node).
step("nm -D" nm -D -C --defined-only ${libraries})
string(REPLACE "\n" ";" symbols "${step_output}")
foreach(line ${symbols})
  if(line MATCHES "^[0-9a-f]+ [A-Za-z] (.*)$")
    set(symbol "${CMAKE_MATCH_1}")
    if(NOT symbol MATCHES "^((typeinfo |typeinfo name |vtable )for )?tiergraph::" AND NOT symbol MATCHES "^TIERGRAPH_")
      message(FATAL_ERROR "install.embed: libtiergraph.so exports '${symbol}', which is not tiergraph:: API")
    endif()
  endif()
endforeach()

# The CMake package.
step("configure examples/embed" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/embed -B ${WORK_DIR}/embed-build
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX})
step("build examples/embed" ${CMAKE_COMMAND} --build ${WORK_DIR}/embed-build)
step("run embed" ${WORK_DIR}/embed-build/embed)
message(STATUS "install.embed: embed printed:\n${step_output}")

# pkg-config, with one plain compiler command.
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
step("pkg-config" pkg-config --cflags --libs tiergraph)
string(STRIP "${step_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
step("g++ with pkg-config" ${CXX} -std=c++17 -O1 ${SOURCE_DIR}/examples/embed/main.cc ${flags}
     -Wl,-rpath,${lib_dir} -o ${WORK_DIR}/embed-pc)
step("run embed (pkg-config)" ${WORK_DIR}/embed-pc)
