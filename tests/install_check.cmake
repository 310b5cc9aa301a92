# install_check.cmake — `cmake --install` into a temporary prefix, then the installed tools find the
# installed stdlib (also after the prefix moves), run a sample from there and a program importing a
# stdlib module. CTest `install`:
#
#   cmake -DBUILD_DIR=<build> -DPREFIX=<scratch> -DBINDIR=bin -DDATADIR=share -DDOCDIR=share/doc/tcp -P install_check.cmake
cmake_minimum_required(VERSION 3.20)

set(problems "")
macro(problem text)
  string(APPEND problems "  ${text}\n")
endmacro()

# Runs a command; `out` gets its stdout; a non-zero exit is a problem.
macro(run out)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE ${out} ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    problem("`${cmd}` exited with ${rc}: ${err}")
  endif()
endmacro()

file(REMOVE_RECURSE ${PREFIX} ${PREFIX}-moved)
run(ignored ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})

foreach(f ${BINDIR}/tcpc ${BINDIR}/tcpi ${BINDIR}/tcp-lsp ${DATADIR}/tcp/stdlib/README.md
          ${DATADIR}/tcp/samples/hello/gemm.tcp ${DATADIR}/tcp/editors/vscode/package.json ${DOCDIR}/README.md
          ${DOCDIR}/docs/architecture.md)
  if(NOT EXISTS ${PREFIX}/${f})
    problem("${f} is not installed")
  endif()
endforeach()

# Every tool reports the installed stdlib, and follows the tree when it moves.
foreach(where ${PREFIX} ${PREFIX}-moved)
  if(where STREQUAL "${PREFIX}-moved")
    file(RENAME ${PREFIX} ${where})
  endif()
  foreach(tool tcpc tcpi tcp-lsp)
    run(dir ${where}/${BINDIR}/${tool} --print-stdlib-dir)
    if(NOT dir STREQUAL "${where}/${DATADIR}/tcp/stdlib")
      problem("${tool} in ${where} reports the stdlib at `${dir}`, not ${where}/${DATADIR}/tcp/stdlib")
    endif()
  endforeach()
  # A sample from the installed tree: run on the CPU model and checked through every phase.
  run(out ${where}/${BINDIR}/tcpi ${where}/${DATADIR}/tcp/samples/hello/constant_add.tcp)
  if(NOT out STREQUAL "constant_add: 2048 elements ok")
    problem("the installed tcpi printed `${out}` for samples/hello/constant_add.tcp")
  endif()
  run(out ${where}/${BINDIR}/tcpc --check ${where}/${DATADIR}/tcp/samples/hello/gemm.tcp)
  # A program outside any source tree that imports a stdlib module: found in the installed stdlib.
  file(WRITE ${where}/uses_stdlib.tcp "use elementwise::add_i32;\naxes![E = 64];\ntype Chip = m![1];\n"
       "type Cluster = m![1 # 2];\ntype EwSlice = m![E / 8 # 256];\nfn main() {\n    let mut ctx = Context::acquire();\n"
       "    let mut rng = SmallRng::seed_from_u64(1);\n    let x = HostTensor::<i32, m![E]>::rand(&mut rng);\n"
       "    let x_hbm = x.to_hbm(&mut ctx.pdma, 0).await;\n    let y_hbm = launch(add_i32, (&mut ctx, &x_hbm, &x_hbm)).await;\n"
       "    let y = y_hbm.to_host::<m![E]>(&mut ctx.pdma).await;\n    assert_eq!(y, x.map(|v| v + v));\n"
       "    println!(\"stdlib ok\");\n}\n")
  run(out ${where}/${BINDIR}/tcpi ${where}/uses_stdlib.tcp)
  if(NOT out STREQUAL "stdlib ok")
    problem("the installed tcpi printed `${out}` for a program importing the installed stdlib's elementwise.tcp")
  endif()
endforeach()
file(REMOVE_RECURSE ${PREFIX} ${PREFIX}-moved)

if(problems)
  message(FATAL_ERROR "install:\n${problems}")
endif()
message(STATUS "install: tcpc, tcpi and tcp-lsp run from an installed prefix and find its stdlib")
