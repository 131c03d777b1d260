import { data } from 'react-router'

export const loader = () => {
  throw data('Not found', { status: 404 })
}

export default function NotFound() {
  return null
}
