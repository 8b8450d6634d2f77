/** The shadow bench's workflows: the eval's loop over plain activities, and the money-transfer equivalent. */
export { plainToolsWorkflow } from './workflow';
export { moneyTransfer } from './money-transfer';
