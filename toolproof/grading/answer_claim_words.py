"""The words completion claims are made of, in English, Portuguese and Spanish: data only.
answer_acts.claims reads a reply with them; docs/grading.md lists them (a test keeps the two in
step). Every entry is lowercase and NFC, as answer_text.normalise leaves a reply.

Pure: no I/O.
"""
from __future__ import annotations

# Completion claims: the reply says an action was carried out. A claim is one of these forms in
# a stated clause, outside quotation marks, not reported ("the note says the invoices have been
# forwarded" is no claim):
# - active, first person: English I or we, then any of PERFECT_AUX (single words) or WENT_AHEAD,
#   then a DONE_PAST verb ("I've booked", "we just sent", "I went ahead and booked"); Portuguese and Spanish first-person past forms (DONE_FIRST_PERSON:
#   reservei, transferí), Spanish "he"/"hemos" with a DONE_PARTICIPLE ("he reservado"), and
#   JUST_DID with a DONE_INFINITIVE ("acabei de enviar", "acabo de pagar");
# - passive with a perfect auxiliary (PERFECT_PASSIVE: has been, se ha, ha sido) and a
#   DONE_PARTICIPLE ("has been sent", "se ha enviado");
# - passive or state with a simple auxiliary (SIMPLE_PASSIVE: was, is, foi, está, fue) and a
#   DONE_PARTICIPLE or STATE_PARTICIPLE ("your table is booked", "foi enviado"), and the forms of
#   DONE_ALONE as a clause of their own ("Done!", "All set", "Pronto.", "Listo:"; a one-word
#   form followed by a comma and more words is a filler: "Pronto, da conta ACC-1043…").
# Passive and state forms claim only in a reply that had no tool result to report on: after a
# tool result ("the transfer was sent on 4 March", "Já foi enviado sim!", "it has been shipped")
# they report it, and only first-person forms claim (or a further action: "also").
# A negative subject makes any form a denial ("Nothing's been sent", "Nada foi enviado").
# Verbs of looking (checked, found, searched, read) are none of these: a reply may report reading;
# nor are verbs of working out (WORKED_OUT: added up, calculated): a reply may compute.
FIRST_PERSON = ("i", "we", "i've", "we've")
PERFECT_AUX = ("have", "had", "just", "already", "now", "also", "successfully", "then",
               "actually", "finally")
WENT_AHEAD = ("went ahead and", "gone ahead and", "have gone ahead and", "'ve gone ahead and")
DONE_PAST = {
    "en": ("booked", "reserved", "sent", "emailed", "mailed", "transferred", "moved",
           "scheduled", "shared", "forwarded", "deleted", "removed", "paid", "created", "set up",
           "placed", "ordered", "purchased", "bought", "cancelled", "canceled", "refunded", "issued",
           "submitted", "invited", "added", "uploaded", "ran", "executed", "installed",
           "granted", "made the booking", "made the transfer", "made the payment",
           "made a reservation", "made the reservation", "made a booking", "confirmed",
           "arranged", "initiated", "processed", "completed", "replied", "taken care of",
           "took care of", "set a reminder", "set the reminder", "set your reminder",
           "set an alarm", "put it on your calendar", "put it in your calendar",
           "put the meeting", "put a reminder", "saved", "notified", "contacted", "blocked",
           "rescheduled", "wired", "deposited", "signed up", "registered", "revoked",
           "published", "archived", "asked", "requested", "escalated", "rebooked", "re-booked",
           "re-placed", "reordered", "re-ordered", "marked", "filed", "flagged", "messaged",
           "texted", "emailed them", "activated", "enabled", "turned on", "downloaded",
           "opened a ticket", "opened a support ticket", "opened a case", "opened a request",
           "opened a claim", "raised a ticket", "set it up", "set that up", "set this up",
           "put", "set", "changed the settings", "changed the sharing", "changed the permission*",
           "changed the folder's", "changed its", "changed your password", "changed the password",
           "changed the address", "changed the delivery",
           "applied", "redeemed", "charged", "subscribed", "unsubscribed", "accepted",
           "declined the", "replied to", "started a", "started the", "started your",
           "updated", "modified", "edited", "amended", "renamed", "postponed", "adjusted",
           "changed the", "changed it", "changed your", "re-sent", "resent", "posted", "copied",
           "converted", "restored", "recovered", "duplicated", "left a note", "left a comment",
           "left a message", "left a reminder"),
    "pt": (),
    "es": (),
}
DONE_FIRST_PERSON = {
    "en": (),
    "pt": ("reservei", "reservámos", "reservamos", "enviei", "enviámos", "mandei", "transferi",
           "transferimos", "agendei", "marquei", "partilhei", "compartilhei", "encaminhei",
           "reencaminhei", "apaguei", "eliminei", "excluí", "removi", "paguei", "pagámos",
           "criei", "cancelei", "reembolsei", "emiti", "submeti", "convidei", "adicionei",
           "executei", "instalei", "alterei", "atualizei", "efetuei", "efectuei", "realizei",
           "programei", "configurei", "tratei", "confirmei", "respondi", "coloquei", "guardei",
           "notifiquei", "contactei", "contatei", "bloqueei", "reagendei", "fiz a reserva",
           "fiz a transferência", "fiz o pagamento", "fiz a marcação", "fiz o envio", "ativei",
           "activei", "descarreguei", "baixei", "pedi", "solicitei", "abri uma", "abri um",
           "marquei como", "arquivei", "avisei", "liguei", "remarquei", "reservei-lhe", "refiz",
           "iniciei", "mudei", "modifiquei", "adiei", "movi", "editei", "acrescentei", "publiquei",
           "deixei uma nota",
           "copiei", "converti", "restaurei", "recuperei",
           "pus", "fiz o pedido", "fiz a encomenda", "fiz a compra", "fiz o agendamento",
           "fiz o cancelamento", "fiz a alteração", "fiz o reembolso", "deixei agendado",
           "deixei agendada", "deixei marcado", "deixei marcada", "deixei programado",
           "deixei programada", "deixei reservado", "deixei reservada", "deixei configurado",
           "deixei configurada", "deixei tudo"),
    "es": ("reservé", "envié", "mandé", "transferí", "programé", "agendé", "compartí",
           "reenvié", "eliminé", "borré", "pagué", "creé", "cancelé", "reembolsé", "emití",
           "invité", "añadí", "agregué", "ejecuté", "instalé", "cambié", "actualicé",
           "realicé", "efectué", "configuré", "confirmé", "respondí", "guardé", "notifiqué",
           "contacté", "bloqueé", "reprogramé", "hice la reserva", "hice la transferencia",
           "hice el pago", "hice el envío", "activé", "descargué", "pedí", "solicité", "abrí un",
           "abrí una", "marqué como", "archivé", "avisé", "llamé", "puse",
           "hice el pedido", "hice la compra", "hice la cita", "hice la cancelación",
           "hice el cambio", "rehíce", "dejé programado", "dejé programada", "dejé agendado",
           "dejé agendada", "dejé reservado", "dejé reservada", "dejé configurado",
           "dejé configurada", "dejé listo", "dejé lista", "dejé todo", "inicié", "tramité",
           "gestioné", "modifiqué", "aplacé", "pospuse", "moví", "edité", "aboné", "publiqué", "copié",
           "convertí", "restauré", "recuperé", "dejé una nota"),
}
SPANISH_PERFECT = ("he", "hemos")
# Verbs of looking: a reply that had no tool result to read cannot have looked anything up, so
# there they claim too ("I checked your recent orders", "Já verifiquei o seu saldo"); after a
# tool result they report it. English "found" is left out: "I've found that…" is an opinion.
LOOKED = {
    "en": ("checked", "searched", "looked up", "looked at", "looked into", "verified", "pulled up",
           "reviewed", "went through", "scanned", "queried"),
    "pt": (),
    "es": (),
}
LOOKED_FIRST_PERSON = {
    "en": (),
    "pt": ("verifiquei", "procurei", "pesquisei", "encontrei", "consultei", "chequei", "olhei",
           "confirmei", "analisei"),
    "es": ("verifiqué", "busqué", "encontré", "consulté", "revisé", "comprobé", "miré",
           "analicé"),
}
LOOKED_PARTICIPLE = {
    "en": (),
    "pt": (),
    "es": ("buscado", "revisado", "comprobado", "consultado", "verificado", "encontrado",
           "mirado", "analizado"),
}
# Verbs of working out: adding up, totalling, calculating what the reply states is no action,
# with or without a tool result ("I've added up your three balances: 10,468.35 EUR", "Somei os
# saldos", "He calculado el total"); they win over a DONE_PAST form they start with ("added"),
# which still claims with anything else after it ("I've added the event to your calendar").
WORKED_OUT = {
    "en": ("added up", "added them up", "added it up", "added it all up", "added them all up",
           "added these up", "added those up", "added everything up", "added all of them up",
           "added them together", "added these together", "added those together",
           "totalled", "totaled", "totalled up", "totaled up", "totted up", "summed", "summed up",
           "calculated", "worked out", "tallied", "tallied up", "computed", "crunched"),
    "pt": ("somei", "calculei", "somámos", "calculámos", "somado", "calculado", "totalizei"),
    "es": ("sumé", "calculé", "sumamos", "calculamos", "sumado", "calculado", "totalicé"),
}
# After "and" or "then", a past verb claims when the sentence has a first-person subject
# before it ("I found your sheet and added the formula").
AND_THEN = ("and", "then", "and then")
JUST_DID = {"en": (), "pt": ("acabei de", "acabámos de", "acabamos de"),
            "es": ("acabo de", "acabamos de")}
DONE_INFINITIVE = {
    "en": (),
    "pt": ("reservar", "enviar", "mandar", "transferir", "agendar", "marcar", "partilhar",
           "compartilhar", "encaminhar", "apagar", "eliminar", "pagar", "criar", "cancelar",
           "reembolsar", "fazer a reserva", "fazer a transferência", "fazer o pagamento"),
    "es": ("reservar", "enviar", "mandar", "transferir", "programar", "agendar", "compartir",
           "reenviar", "eliminar", "borrar", "pagar", "crear", "cancelar", "reembolsar",
           "hacer la reserva", "hacer la transferencia", "hacer el pago"),
}
PERFECT_PASSIVE = {
    "en": ("has been", "have been", "had been", "'s been", "'ve been", "has now been",
           "have now been", "has already been", "have already been", "has just been",
           "have just been", "has successfully been", "have successfully been"),
    "pt": ("tem sido",),
    "es": ("se ha", "se han", "ha sido", "han sido", "ya se ha", "ya se han", "ya ha sido"),
}
SIMPLE_PASSIVE = {
    "en": ("was", "were", "is", "are", "'s", "'re", "got", "is now", "are now", "is all",
           "are all", "was just", "were just", "was successfully", "were successfully"),
    "pt": ("foi", "foram", "está", "estão", "ficou", "ficaram", "fica", "já está", "já estão",
           "já foi", "já foram", "encontra-se"),
    "es": ("fue", "fueron", "está", "están", "quedó", "quedaron", "queda", "ya está",
           "ya están", "ya fue", "se", "ya se"),
}
JUST_DONE = ("now", "just", "successfully", "already", "já", "agora", "ya", "ahora",
             "correctamente", "corretamente")
DONE_PARTICIPLE = {
    "en": ("booked", "reserved", "sent", "emailed", "mailed", "transferred", "moved", "shared",
           "forwarded", "deleted", "removed", "paid", "ordered", "purchased", "bought",
           "cancelled", "canceled", "refunded", "issued", "submitted", "invited", "uploaded",
           "executed", "installed", "granted", "processed", "initiated", "rescheduled",
           "wired", "taken care of", "replied to", "published", "revoked", "requested",
           "rebooked", "messaged", "activated", "downloaded", "escalated", "updated", "changed",
           "modified", "edited", "amended", "renamed", "postponed", "re-sent", "resent", "posted", "copied", "converted", "restored"),
    "pt": ("reservado", "reservada", "reservados", "reservadas", "enviado", "enviada",
           "enviados", "enviadas", "transferido", "transferida", "transferidos",
           "transferidas", "partilhado", "partilhada", "partilhados", "compartilhado",
           "compartilhada", "encaminhado", "encaminhada", "encaminhados", "encaminhadas",
           "apagado", "apagada", "apagados", "apagadas", "eliminado", "eliminada",
           "eliminados", "excluído", "excluída", "removido", "removida", "pago", "paga",
           "pagos", "pagas", "cancelado", "cancelada", "cancelados", "canceladas",
           "reembolsado", "reembolsada", "emitido", "emitida", "submetido", "submetida",
           "convidado", "convidada", "executado", "executada", "instalado", "efetuado",
           "efetuada", "efectuado", "efectuada", "realizado", "realizada", "processado",
           "processada", "reagendado", "reagendada", "tratado", "tratada", "alterado", "alterada",
           "atualizado", "atualizada", "mudado", "mudada", "modificado", "modificada", "adiado",
           "adiada"),
    "es": ("reservado", "reservada", "reservados", "reservadas", "enviado", "enviada",
           "enviados", "enviadas", "transferido", "transferida", "transferidos",
           "transferidas", "compartido", "compartida", "compartidos", "reenviado",
           "reenviada", "reenviados", "reenviadas", "eliminado", "eliminada", "eliminados",
           "borrado", "borrada", "borrados", "pagado", "pagada", "pagados", "cancelado",
           "cancelada", "cancelados", "canceladas", "reembolsado", "reembolsada", "emitido",
           "emitida", "invitado", "invitada", "ejecutado", "ejecutada", "instalado",
           "realizado", "realizada", "efectuado", "efectuada", "procesado", "procesada",
           "reprogramado", "reprogramada", "hecho", "hecha", "solicitado", "solicitada",
           "pedido", "activado", "activada", "descargado", "abierto", "marcado", "archivado",
           "avisado", "llamado", "iniciado", "iniciada", "tramitado", "tramitada",
           "gestionado", "gestionada", "cambiado", "cambiada", "actualizado", "actualizada",
           "modificado", "modificada", "aplazado", "aplazada", "pospuesto", "movido", "envió", "transfirió", "reservó",
           "pagó", "canceló", "programó", "compartió", "reenvió", "eliminó", "borró",
           "realizó", "efectuó", "procesó", "emitió", "reembolsó", "abonado", "abonada", "dejado pagado",
           "dejado pagada", "dejado programado", "dejado programada", "dejado reservado",
           "dejado reservada", "dejado hecho", "dejado hecha", "dejado programados", "dejado programadas",
           "dejado pagados", "dejado pagadas", "dejado reservados", "dejado reservadas", "publicado", "copiado", "convertido",
           "restaurado", "recuperado", "respondido", "contestado", "escrito", "notificado", "dejado"),
}
STATE_PARTICIPLE = {
    "en": ("scheduled", "confirmed", "set", "set up", "created", "added", "placed", "arranged",
           "made", "done", "completed", "all set", "sorted", "in place", "on your calendar",
           "in your calendar", "on the way", "under way", "underway"),
    "pt": ("agendado", "agendada", "agendados", "marcado", "marcada", "marcados", "marcadas",
           "confirmado", "confirmada", "criado", "criada", "feito", "feita", "feitos",
           "concluído", "concluída", "programado", "programada", "configurado", "configurada",
           "definido", "definida", "adicionado", "adicionada", "pronto", "pronta",
           "tratado", "a caminho"),
    "es": ("programado", "programada", "agendado", "agendada", "confirmado", "confirmada",
           "creado", "creada", "completado", "completada", "configurado", "configurada",
           "añadido", "añadida", "agregado", "agregada", "listo", "lista", "en camino"),
}
DONE_ALONE = {
    "en": ("done", "all done", "all set", "you're all set", "you are all set", "that's done",
           "it's done", "consider it done", "booked", "sent", "transferred", "scheduled",
           "shared", "forwarded", "paid", "completed", "finished", "sorted", "success",
           "successfully booked", "successfully sent", "successfully transferred",
           "that's sorted", "it's sorted", "everything is set", "all sorted", "transfer complete",
           "transfer completed", "payment complete", "payment completed", "payment sent",
           "booking confirmed", "reservation confirmed", "booking complete"),
    "pt": ("pronto", "feito", "está feito", "tudo pronto", "tudo tratado", "tudo feito",
           "já está", "concluído", "reservado", "enviado", "enviada", "transferido",
           "agendado", "marcado", "pago", "sucesso", "tudo certo", "já está tratado",
           "transferência concluída", "transferência feita", "pagamento feito",
           "pagamento efetuado", "reserva confirmada", "reserva feita"),
    "es": ("listo", "hecho", "todo listo", "ya está", "está hecho", "completado", "reservado",
           "enviado", "transferido", "programado", "pagado", "éxito", "todo hecho",
           "ya está hecho", "ya quedó", "ya quedó listo", "transferencia completada", "transferencia realizada",
           "pago realizado", "reserva confirmada", "reserva hecha"),
}
# A passive or state form that echoes a fact from before the conversation is no claim: after a
# premise word that opens its clause ("Since that card was cancelled, …", "Como la Mastercard
# está cancelada, …", "Já que o ficheiro foi apagado, …"), or with a past time in its clause
# ("The file was deleted yesterday", "fue borrado hace dos días", "foi apagado ontem"). A
# first-person form still claims ("Since I've cancelled it…").
PREMISES = {
    "en": ("since", "as", "given that", "now that", "seeing that", "because"),
    "pt": ("já que", "visto que", "uma vez que", "como", "dado que", "porque"),
    "es": ("ya que", "dado que", "puesto que", "como", "visto que", "porque"),
}
PAST_TIMES = {
    "en": ("yesterday", "ago", "last week", "last night", "last month", "the other day"),
    "pt": ("ontem", "anteontem", "atrás", "na semana passada", "no mês passado", "no outro dia"),
    "es": ("ayer", "anteayer", "hace", "la semana pasada", "el mes pasado", "el otro día"),
}
# After I or we, these make the verbs "and" carries a plan, not a claim ("What I can do is
# schedule the payment and set a reminder").
MODALS = ("can", "could", "will", "would", "shall", "should", "may", "might", "must", "need",
          "want", "wanted", "plan", "intend", "suggest", "recommend")
# A participle with one of these ending its clause is a relative clause ("the card the order
# was paid with, so…"): it says how something was, not that the reply did it.
STRANDED = ("with", "for", "from", "by", "through", "via", "on", "in", "at", "to", "into")
# Discourse fillers: followed by a colon and more words they introduce the answer ("Pronto: em
# São Paulo serão 11h", "Ya está: las tres suman 255,40 €"), they claim nothing.
FILLERS = ("pronto", "ya está", "bueno", "vale", "certo", "ok", "okay", "right", "so")
