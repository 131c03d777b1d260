/**
 * The workspace service as the resources route uses it, with the checks of domains above resources
 * registered first (an invalid `environments/<name>.md` is refused on write). A route module cannot
 * import a server module for its effect alone: that import would stay in the browser bundle.
 */
import '../environments/file-validator.ts'

export { deleteResource, parseScope, readResource, writeResource } from '../resources/service.ts'
