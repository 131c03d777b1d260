// Imported first: the server code's logger reads LOG_LEVEL once, at first use.
process.env.LOG_LEVEL ??= 'silent'
