/* The subcommands of the ntt command.  argv[0] is the subcommand's name;
   each handles --help and returns the exit code (cli.h). */
#ifndef NTT_COMMANDS_H
#define NTT_COMMANDS_H

int cmd_mul(int argc, char **argv);
int cmd_cases(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_info(int argc, char **argv);
/* ntt wisdom: MEASURE plans of common sizes, their wisdom written out (cmd_wisdom.c). */
int cmd_wisdom(int argc, char **argv);
/* ntt bench ARGS: runs ntt-bench ARGS (cmd_bench.c). */
int cmd_bench(int argc, char **argv);

#endif
