/** The environment variable `toolplane serve --http` takes its bearer token from (read by the command's help and its action). */
export const TOKEN_VARIABLE = "TOOLPLANE_SERVE_TOKEN";
